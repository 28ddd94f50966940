import APNSTestSupport
import Foundation
import Testing

/// `send --dry-run` prints a curl command; it must work as printed. Each case runs the printed lines in
/// bash against `apnsctl mock`, for PEM, DER (certificate and key apart) and PKCS#12 inputs.
@Suite struct DryRunCurlTests {
    static let token = String(repeating: "3f2a", count: 16)

    enum Input: String, CaseIterable { case pem, der, pkcs12 }

    @Test(arguments: Input.allCases)
    func printedCurlCommandIsAcceptedByTheMock(input: Input) throws {
        let mock = try MockProcess()
        let dir = try TemporaryDirectory(prefix: "dry-run-curl")
        var credential: [String]
        var passphrase: String? = nil
        switch input {
        case .pem:
            credential = ["--cert", mock.certificate]
        case .der:
            let cert = dir.file("aps.cer"), key = dir.file("key.der")
            #expect(try CommandRunner.run("openssl", ["x509", "-in", mock.certificate, "-outform", "DER", "-out", cert]).status == 0)
            #expect(try CommandRunner.run("openssl", ["pkey", "-in", mock.certificate, "-outform", "DER", "-out", key]).status == 0)
            credential = ["--cert", cert, "--key", key]
        case .pkcs12:
            let p12 = dir.file("push.p12")
            #expect(try CommandRunner.run("openssl", ["pkcs12", "-export", "-in", mock.certificate, "-out", p12,
                                                       "-passout", "pass:s3cret"]).status == 0)
            credential = ["--cert", p12]
            passphrase = "s3cret"
        }
        let dry = try CommandRunner.apnsctl(["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--alert", "Hi",
                                             "-d", Self.token, "--dry-run"] + credential,
                                            environment: ["APNSCTL_PASSPHRASE": passphrase ?? ""])
        #expect(dry.status == 0, "\(dry.stderr)")
        // The variables line (`# APNS_CERT='…'  APNS_KEY='…'`), then the command from `curl` on.
        let lines = dry.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let variables = try #require(lines.first { $0.hasPrefix("# APNS_CERT=") })
        let start = try #require(lines.firstIndex { $0.hasPrefix("curl ") })
        var script = String(variables.dropFirst(2)).replacingOccurrences(of: "<its passphrase>", with: passphrase ?? "") + "\n"
        script += lines[start...].joined(separator: "\n")
        if input == .der {
            #expect(script.contains("--cert-type DER") && script.contains("--key-type DER"), "\(script)")
        }
        let run = try CommandRunner.run("bash", ["-c", script], timeout: 60)
        #expect(run.status == 0, "\(input): \(run.stderr)\n\(script)")
        #expect(run.stdout.hasPrefix("HTTP/2 200"), "\(input): \(run.stdout)\n\(script)")
    }
}
