import APNSCrypto
import APNSPlatform

/// A yes/no question on the controlling terminal (`/dev/tty`, so it works with stdout redirected), for
/// irreversible actions such as `channel delete`.
enum Confirmation {
    /// Shows `prompt` and reads one line; true only for `y` or `yes` (any case).
    static func ask(on terminal: CommandTerminal, _ prompt: String) -> Bool {
        guard let line = terminal.readLine(prompt) else { return false }
        let answer = line.lowercased().filter { $0 != " " && $0 != "\r" }
        return answer == "y" || answer == "yes"
    }
}
