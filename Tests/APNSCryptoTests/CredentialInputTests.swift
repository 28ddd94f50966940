import APNSCore
import APNSTestSupport
import Testing

@testable import APNSCrypto

/// Credentials from memory (PEM text a CI job keeps in `APNSCTL_AUTH_KEY` or `APNSCTL_CERT`): loaded without a
/// file, named in every message by their display name, never by their content.
@Suite struct CredentialInputTests {
    @Test func signingKeyAndIdentityFromMemory() throws {
        let credentials = try APNSTestSupport.TestCredentials()
        let keyPEM = try credentials.signingKey.privateKey.pkcs8PEM(passphrase: nil)
        let key = try SigningKeyFile.read(.memory(keyPEM, name: "(PEM from APNSCTL_AUTH_KEY)")).decode()
        #expect(key.keyIDFromFileName == nil, "no file name, so no key id from it")
        let pem = credentials.push.certificate.pem + (try credentials.push.privateKey.pkcs8PEM(passphrase: nil))
        let identity = try CredentialLoader.loadIdentity(
            certificate: .memory(pem, name: "(PEM from APNSCTL_CERT)"), key: nil,
            passphrase: .none)
        #expect(identity.certificatePath == "(PEM from APNSCTL_CERT)")
        // The same with the key in its own variable.
        let split = try CredentialLoader.loadIdentity(
            certificate: .memory(credentials.push.certificate.pem, name: "(PEM from APNSCTL_CERT)"),
            key: .memory(try credentials.push.privateKey.pkcs8PEM(passphrase: nil), name: "(PEM from APNSCTL_KEY)"),
            passphrase: .none)
        #expect(split.certificate.pem == identity.certificate.pem)
    }

    @Test func problemsNameTheVariableNotTheContent() throws {
        let credentials = try APNSTestSupport.TestCredentials()
        // A certificate where a .p8 belongs: the message names the display name only.
        do {
            _ = try SigningKeyFile.read(
                .memory(credentials.push.certificate.pem, name: "(PEM from APNSCTL_AUTH_KEY)")
            ).decode()
            Issue.record("a certificate was accepted as a signing key")
        } catch {
            let text = "\(error)"
            #expect(text.contains("(PEM from APNSCTL_AUTH_KEY)"))
            #expect(!text.contains("BEGIN"))
        }
        let garbage = Array(
            "-----BEGIN PRIVATE KEY-----\nnot base64 at all SECRETBODY\n-----END PRIVATE KEY-----\n".utf8)
        do {
            _ = try SigningKeyFile.read(.memory(garbage, name: "(PEM from APNSCTL_AUTH_KEY)")).decode()
            Issue.record("garbage was accepted")
        } catch {
            #expect("\(error)".contains("(PEM from APNSCTL_AUTH_KEY)"))
            #expect(!"\(error)".contains("SECRETBODY"))
        }
    }

    /// PEM whose line breaks a paste or a secret store changed keeps every byte of the key: indented (YAML), line
    /// breaks flattened into spaces, or written as the two characters `\n` (`.env` files) all load, as the file
    /// itself does; a damaged body is still refused.
    @Test func pemWithItsLayoutChangedLoads() throws {
        let credentials = try APNSTestSupport.TestCredentials()
        let key = String(decoding: try credentials.signingKey.privateKey.pkcs8PEM(passphrase: nil), as: UTF8.self)
        let bundle =
            String(decoding: credentials.push.certificate.pem, as: UTF8.self)
            + String(decoding: try credentials.push.privateKey.pkcs8PEM(passphrase: nil), as: UTF8.self)
        let layouts: [(String, (String) -> String)] = [
            ("indented", { $0.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n" }),
            ("spaces", { $0.split(separator: "\n").joined(separator: " ") }),
            ("escaped", { $0.split(separator: "\n").joined(separator: "\\n") }),
            ("CRLF with tabs", { $0.split(separator: "\n").map { "\t" + $0 + " " }.joined(separator: "\r\n") }),
        ]
        for (name, layout) in layouts {
            let signing = try SigningKeyFile.read(.memory(Array(layout(key).utf8), name: "(PEM from APNSCTL_AUTH_KEY)"))
                .decode()
            #expect(signing.keyIDFromFileName == nil, "\(name)")
            let identity = try CredentialLoader.loadIdentity(
                certificate: .memory(Array(layout(bundle).utf8), name: "(PEM from APNSCTL_CERT)"), key: nil,
                passphrase: .none)
            #expect(identity.certificate.pem == credentials.push.certificate.pem, "\(name)")
        }
        // Laid out again, a body that is not the key's is still no key.
        var lines = key.split(separator: "\n").map(String.init)
        lines[1] = String(repeating: "A", count: lines[1].count)
        let damaged = lines.joined(separator: " ")
        #expect(throws: CredentialProblem.self) {
            _ = try SigningKeyFile.read(.memory(Array(damaged.utf8), name: "k")).decode()
        }
    }
}
