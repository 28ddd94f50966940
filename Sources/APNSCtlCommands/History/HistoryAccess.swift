import APNSCore
import APNSHistory
import APNSPlatform
import APNSSettings

/// How `history` and `send --replay` reach the history: the store in the world's state folder, an entry named
/// by its number or `last`, and the history's problems as CLI.md's exit codes.
enum HistoryAccess {
    /// The history for reading; nil when nothing was ever recorded (or there is no home to keep it in).
    static func open(in world: CommandWorld) throws(CLIError) -> HistoryStore? {
        guard let directory = world.historyDirectory else { return nil }
        do { return try HistoryStore.open(directory: directory, create: false) } catch { throw cliError(error) }
    }

    /// The entry `reference` names (`41`, `#41` or `last`), with its results. No such entry is exit 64 naming
    /// the newest ones.
    static func entry(_ reference: String, in world: CommandWorld) throws(CLIError) -> HistoryEntry {
        try opened(reference, withResults: true, in: world).entry
    }

    /// `entry`, with the store it was read from, open for `HistoryStore.forEachResult`; without its results unless
    /// `withResults`.
    static func opened(_ reference: String, withResults: Bool, in world: CommandWorld) throws(CLIError) -> (
        entry: HistoryEntry, store: HistoryStore
    ) {
        let text = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        let wanted = text.lowercased() == "last" ? nil : Int64(text)
        // A number past any entry's: not a slip of the word, an entry that does not exist.
        let beyondEveryEntry = wanted == nil && !text.isEmpty && text.allSatisfy({ $0.isASCII && $0.isNumber })
        if text.lowercased() != "last" && wanted == nil && !beyondEveryEntry {
            let near = Suggestion.closest(to: text, among: ["last"]).map { "did you mean \($0)? Else " } ?? ""
            throw .usage(
                "\(PrintableText.quoted(reference)): not a history entry; \(near)give its number (apnsctl history lists them) or last"
            )
        }
        // `--replay=-1` meant as "the one before last": numbers count up from 1, and only `last` counts back.
        if let wanted, wanted < 1 {
            throw .usage(
                "history entry numbers start at #1, so \(PrintableText.quoted(reference)) names none; last is the newest, and apnsctl history lists the others with their numbers"
            )
        }
        guard let store = try open(in: world) else { throw noFolder(in: world).map { .usage($0) } ?? nothingRecorded }
        do {
            let id: Int64?
            if beyondEveryEntry {
                id = nil
            } else {
                guard let chosen = try wanted ?? store.newestID() else { throw nothingRecorded }
                if let entry = try store.entry(chosen, withResults: withResults) { return (entry, store) }
                id = chosen
            }
            let newest = try store.entries(HistoryQuery(limit: 3)).map { "#\($0.id)" }
            let hint = newest.isEmpty ? "the history is empty" : "the newest are " + newest.joined(separator: ", ")
            throw CLIError.usage(
                "history entry #\(id.map(String.init) ?? text) does not exist (\(hint)); apnsctl history lists them")
        } catch let problem as HistoryProblem {
            throw cliError(problem)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .internalError("history: \(error)")
        }
    }

    private static var nothingRecorded: CLIError {
        .usage("no send is recorded in the history yet; apnsctl send records each one (unless --no-history)")
    }

    /// Why there is no folder for the history (no home, no XDG_STATE_HOME), when there is none: `no home directory
    /// (…)`, said where "nothing is recorded yet" would send the user looking for sends that were never kept.
    static func noHome(in world: CommandWorld) -> String? {
        guard world.historyDirectory == nil else { return nil }
        return "no home directory "
            + "(\(world.settings.noHomeReason(xdg: "XDG_STATE_HOME")))"
    }

    /// `noHome` as the history commands say it.
    static func noFolder(in world: CommandWorld) -> String? {
        noHome(in: world).map { "no history is kept: \($0); set XDG_STATE_HOME to a folder of yours to keep one" }
    }

    /// A history that cannot be read: exit 66, saying what to do (a damaged file is moved aside, and the next
    /// send starts a new one).
    static func cliError(_ problem: HistoryProblem) -> CLIError {
        switch problem {
        case .busy: return .inputMissing(problem.message + "; try again once it is done")
        default:
            return .inputMissing(problem.messageWithAdvice)
        }
    }
}
