import Foundation

/// Runs a program on a pseudo-terminal (through `Tests/Scripts/pty-run.py`, standard-library Python) and
/// plays keystrokes against it: for what only a terminal shows, such as prompts without echo, Ctrl-C
/// and Ctrl-Z, progress lines and colour.
public enum PseudoTerminal {
    /// One step of the script.
    public enum Step {
        /// Wait (up to `timeout` seconds) until `text` appears after what earlier steps waited for.
        case expect(String, timeout: Double = 20)
        /// Type `text` (`"\u{03}"` is Ctrl-C, `"\u{1A}"` Ctrl-Z, `"\u{04}"` Ctrl-D).
        case send(String)

        var json: [String: Any] {
            switch self {
            case .expect(let text, let timeout): return ["expect": text, "timeout": timeout]
            case .send(let text): return ["send": text]
            }
        }
    }

    /// What the terminal showed and how the program ended.
    public struct Result: Sendable {
        /// Everything written to the terminal (echoed input included), `\r\n` line ends.
        public let transcript: String
        public let status: Int32?
        public let signal: Int32?
        /// The step that timed out, if any.
        public let failedStep: Int?
    }

    /// Runs `argv` on an 80-column terminal with `environment` added and `unsetting` removed (NO_COLOR is
    /// empty unless given, and the passphrase variables are unset, so prompts appear).
    public static func run(
        _ argv: [String], environment: [String: String] = [:], unsetting: [String] = [],
        steps: [Step] = [], timeout: Double = 60
    ) throws -> Result {
        if BinaryStarts.starts(argv.first ?? "", argv, environment: environment) { BinaryStarts.record() }
        var env: [String: Any] = environment
        if env["NO_COLOR"] == nil { env["NO_COLOR"] = "" }
        for name in unsetting + ["APNSCTL_PASSPHRASE", "APNSCTL_OUT_PASSPHRASE"] where environment[name] == nil {
            env[name] = NSNull()
        }
        let spec: [String: Any] = [
            "argv": argv, "env": env, "steps": steps.map(\.json), "timeout": timeout, "columns": 80,
        ]
        let data = try JSONSerialization.data(withJSONObject: spec)
        let r = try CommandRunner.run(
            try TestPython.plain(),
            [Repository.path("Tests/Scripts/pty-run.py"), String(decoding: data, as: UTF8.self)],
            timeout: timeout + 30)
        guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        else {
            throw TestSupportError("pty-run.py failed (\(r.status)): \(r.stderr)")
        }
        return Result(
            transcript: object["transcript"] as? String ?? "",
            status: (object["status"] as? Int).map(Int32.init), signal: (object["signal"] as? Int).map(Int32.init),
            failedStep: object["failed_step"] as? Int)
    }
}
