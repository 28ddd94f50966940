import APNSCore
import APNSTestSupport
import Foundation

@testable import APNSCrypto

/// Identities generated once per test run and shared by the Crypto suites (generation, RSA especially, is
/// slow), beside the files a `TestCredentials` value writes for the end-to-end tests: one type for both.
extension TestCredentials {
    static let bundleID = "com.example.demo"
    static let universalTopics = ["com.example.demo", "com.example.demo.voip", "com.example.demo.complication"]

    /// An EC CA.
    static let ca: PushIdentity = make { try CredentialGenerator.makeCA(commonName: "apnsctl Test CA") }
    /// A universal (both environments, topics extension) EC push certificate.
    static let universal: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: bundleID, kind: .universal(topics: universalTopics))
    }
    /// A development-only RSA 2048 push certificate (what Apple issues).
    static let developmentRSA: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(
            ca: ca, bundleID: "com.example.dev", kind: .development, key: .rsa(bits: 2048))
    }
    /// A production-only EC push certificate.
    static let production: PushIdentity = make {
        try CredentialGenerator.makePushCertificate(ca: ca, bundleID: "com.example.prod", kind: .production)
    }

    private static func make(_ body: () throws -> PushIdentity) -> PushIdentity {
        do { return try body() } catch { fatalError("test credential generation failed: \(error)") }
    }
}

/// Small helpers for tests that write credentials and ask `openssl` about them.
extension TemporaryDirectory {
    /// Writes bytes and returns the path.
    func put(_ name: String, _ bytes: [UInt8]) throws -> String { try write(name, bytes, mode: 0o600) }
}

/// Runs `openssl` and fails the test's expectation text when it fails.
@discardableResult
func openssl(_ args: [String], stdin: [UInt8]? = nil) throws -> CommandResult {
    let r = try CommandRunner.run("openssl", args, stdin: stdin)
    if r.status != 0 { throw TestSupportError("openssl \(args.joined(separator: " ")) failed: \(r.stderr)") }
    return r
}
