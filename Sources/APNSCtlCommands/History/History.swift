import ArgumentParser

extension APNSCtl {
    /// `apnsctl history`: earlier sends and what APNs answered, from the local history database.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List and show earlier sends with their results; send --replay sends one again.",
            discussion: """
                Every apnsctl send that reaches a server, or tries to, is recorded in a local SQLite database, \
                $XDG_STATE_HOME/apnsctl/history.db (default ~/.local/state/apnsctl/history.db, mode 0600 in a \
                0700 folder): its settings as resolved (environment, endpoint, topic, push type, priority, \
                expiration, collapse id, and the credential's identity, never a key, passphrase or token), the \
                payload bytes sent, and every device's result. A batch is one entry. Entries older than 30 days \
                and beyond the newest 1,000 are removed (history-days and history-entries in a profile, or \
                APNSCTL_HISTORY_DAYS and APNSCTL_HISTORY_ENTRIES); send --no-history, APNSCTL_NO_HISTORY=1 or \
                history = false in a profile turn recording off. A send whose history cannot be written (disk \
                full, locked, damaged) still sends, with one warning.

                Examples:
                  apnsctl history
                  apnsctl history --device my-iphone --since 2h
                  apnsctl history show last
                  apnsctl send --replay last -p mock
                  apnsctl history clear --before 7d --yes
                """,
            subcommands: [List.self, Show.self, Clear.self],
            defaultSubcommand: List.self)
    }
}
