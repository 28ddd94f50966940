import APNSTestSupport
import Foundation
import Testing

/// CLI.md: no message echoes an environment value longer than 200 characters or with a line break. The variables
/// that name a path (`APNSCTL_CONFIG`, `APNSCTL_MOCK_STATE_DIR`) are quoted by every message about that path, and the
/// mock made a folder of that name: a key pasted into one is refused (64) without a word of it, and nothing is made.
@Suite struct PathVariableSecrecyTests {
    static let key = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPRIVATEPARTOFTHEKEY
        hRANCAAQ2pUpiVcTqb9ZyXMUiVn8Sk3KrV2ZwgUZzNGX1Ww6jfP8jXYlGnFqz5cy
        -----END PRIVATE KEY-----
        """

    @Test(arguments: ["APNSCTL_CONFIG", "APNSCTL_MOCK_STATE_DIR"])
    func aKeyInAPathVariableIsRefusedUnshown(variable: String) throws {
        let folder = try TemporaryDirectory(prefix: "path-variable")
        // The key's body on one line, without its BEGIN and END lines (as keys are kept as CI secrets).
        let body = Self.key.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let token = String(repeating: "ab", count: 32)
        var lines: [[String]] = [["send", "-p", "mock", "-d", token, "--alert", "hi"]]
        lines +=
            variable == "APNSCTL_CONFIG"
            ? [["config", "path"], ["config", "list"], ["config", "show"]]
            : [["mock", "--port", "0"], ["mock", "stop"]]
        for value in [Self.key, body] {
            for arguments in lines {
                let r = try InProcess.apnsctl(
                    arguments, environment: [variable: value], directory: folder.path, timeout: 20)
                let shown = "\(arguments) \(value.prefix(5)): \(r.stderr)"
                #expect(r.status == 64, "\(shown)")
                #expect(
                    r.stderr.contains("\(variable) holds ") && r.stderr.contains("(not shown), not a path"), "\(shown)")
                for part in ["PRIVATEPARTOFTHEKEY", "hRANCAAQ"] {
                    #expect(!r.stderr.contains(part) && !r.stdout.contains(part), "\(shown)")
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // A key in the mock's variable stops only what reads the mock: a send with flags is not refused for it.
        if variable == "APNSCTL_MOCK_STATE_DIR" {
            let flags = try InProcess.apnsctl(
                ["send", "-d", token, "--alert", "hi", "--cert", folder.file("none.pem")],
                environment: [variable: Self.key])
            #expect(flags.status == 66 && !flags.stderr.contains(variable), "\(flags.stderr)")
        }
        // A path that is merely long is a path: a send that never uses the mock is not stopped by it.
        let long = folder.file(String(repeating: "d", count: 120) + "/" + String(repeating: "e", count: 120))
        let r = try InProcess.apnsctl(["config", "path"], environment: [variable: long + "/config.toml"])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
