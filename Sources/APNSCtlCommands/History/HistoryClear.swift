import APNSHistory
import ArgumentParser

extension APNSCtl.History {
    /// `apnsctl history clear [--before WHEN] [--yes]`: removes entries; asks first on a terminal.
    struct Clear: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove every recorded send, or those started before a time.",
            discussion: """
                On a terminal apnsctl asks first; elsewhere (scripts, CI) pass --yes, else it exits 64.
                """)

        @Option(
            name: .customLong("before"),
            help: ArgumentHelp(
                "Only entries started before this time: a duration ago (7d), a local date or time (2026-11-28, 2026-11-28 18:02) or one with its zone (2026-11-28T18:02:00Z, …+05:00).",
                valueName: "when"))
        var before: String?

        @Flag(
            name: [.customShort("y"), .customLong("yes")], help: "Remove without asking (needed without a terminal).")
        var yes = false

        func run(in world: CommandWorld) throws {
            let cutoff = try before.map { try HistoryTime.parse($0, flag: "--before", in: world) }
            if !yes && !world.terminal.isAvailable() {
                throw CLIError.usage("history clear: there is no terminal to ask on; pass --yes to confirm")
            }
            guard let store = try HistoryAccess.open(in: world) else {
                let why = HistoryAccess.noFolder(in: world) ?? "the history is empty"
                world.standardError.print("\(why); nothing to clear\n")
                return
            }
            if !yes {
                let what = before.map { "recorded sends started before \($0)" } ?? "every recorded send"
                guard Confirmation.ask(on: world.terminal, "Remove \(what) from \(store.path)? [y/N] ") else {
                    throw CLIError.usage("history clear: not confirmed; nothing was removed")
                }
            }
            let removed: Int
            do { removed = try store.clear(before: cutoff) } catch {
                // Read, but not written: output that could not be written (74), as a full disk is.
                switch error {
                case .readOnly:
                    throw CLIError.outputFailed(error.message + "; make it and its folder writable to clear it")
                case .full: throw CLIError.outputFailed(error.message)
                default: throw HistoryAccess.cliError(error)
                }
            }
            world.standardError.print("removed \(removed) entr\(removed == 1 ? "y" : "ies") from the history\n")
        }
    }
}
