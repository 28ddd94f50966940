import APNSTestSupport
import Foundation
import Testing

@testable import APNSCrypto

/// What a `--ca-file` OpenSSL refused turns out to hold, and where its DER form's advice writes the PEM.
@Suite struct CAFileContentsTests {
    /// Beside the DER file, named after it, and never over a file already there (nor over itself).
    @Test func theConvertedPEMReplacesNothing() throws {
        let dir = try TemporaryDirectory(prefix: "ca-contents")
        let der = try dir.put("ca.cer", TestCredentials.ca.certificate.der)
        #expect(CAFileContents.pemName(for: der) == dir.file("ca.pem"))
        _ = try dir.put("ca.pem", TestCredentials.ca.certificate.pem)
        #expect(CAFileContents.pemName(for: der) == dir.file("ca.converted.pem"))
        #expect(CAFileContents.pemName(for: dir.file("ca.pem")) == dir.file("ca.converted.pem"))
    }

    /// Each kind of file is named for what it is; PEM certificates OpenSSL refused for another reason get its own.
    @Test func eachKindIsNamed() throws {
        #expect(CAFileContents.reason(bytes: Array(" \n".utf8), path: "x") == "the file is empty")
        #expect(
            CAFileContents.reason(bytes: Array("[1]".utf8), path: "x") == "it looks like JSON, not PEM certificates")
        #expect(CAFileContents.reason(bytes: TestCredentials.ca.certificate.pem, path: "x") == nil)
        let key = try TestCredentials.ca.privateKey.pkcs8PEM(passphrase: nil)
        #expect(CAFileContents.reason(bytes: key, path: "x") == "it holds no CERTIFICATE block, only PRIVATE KEY")
    }
}
