import APNSCore
import APNSPlatform

/// Reads the running mock's `mock.json` for the built-in `mock` profile. It names the endpoint and the CA
/// that the user's provider token goes to, so it is read through `TrustedFile`: one another user could
/// write, a link of theirs, a FIFO, anything in /proc, /sys or /dev is refused at once (exit 66) saying
/// whose it is and why.
public enum MockReadyFileReader {
    /// The bytes of `mock.json` at `path`; nil when there is none (then `MockProfile` says to start the mock).
    public static func read(_ path: String) throws(SettingsProblem) -> [UInt8]? {
        do { return try TrustedFile.read(path, limit: maximumSize) } catch {
            switch error {
            case .missing, .unseen: return nil
            case .unreadable(_, let reason):
                throw .missing("-p mock: cannot read \(path): \(reason)")
            case .tooLarge:
                throw .missing(
                    "-p mock: \(path): more than \(maximumSize) bytes, not the mock.json apnsctl mock writes; restart apnsctl mock"
                )
            case .notAFile(_, let reason):
                // The mock cannot write its file over a folder: moved aside first, or a restart fails the same way.
                throw .missing(
                    "-p mock: \(path): \(reason); move it aside (mv \(ShellWord.of(path)) \(ShellWord.of(path + ".old"))), "
                        + "then restart apnsctl mock, which writes it")
            case .untrusted(_, let reason, let fix):
                throw .missing(
                    "-p mock: \(path): \(reason); mock.json decides where your credentials go, so it is used only "
                        + "when no one else can change it: \(fix.map { "\($0), or " } ?? "")start apnsctl mock with a state dir of your own "
                        + "(APNSCTL_MOCK_STATE_DIR=\"$(mktemp -d)\" apnsctl mock)")
            }
        }
    }

    /// Far beyond the few hundred bytes the mock writes.
    static let maximumSize = 1 << 16
}
