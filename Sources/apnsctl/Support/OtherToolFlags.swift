/// Flags users bring from other tools (curl, other push senders) and their apnsctl spelling (CLI.md, "Exit
/// codes"): the parser's own "did you mean" picks the nearest spelling (`--team` → `--cert`, `--json` →
/// `--sound`), which for these is wrong advice.
enum OtherToolFlags {
    static let spellings: [String: String] = [
        "--team": "--team-id",
        "--cacert": "--ca-file",
        "--prod": "--env production", "--production": "--env production",
        "--dev": "--env sandbox", "--development": "--env sandbox", "--sandbox": "--env sandbox",
        "--json": "-o json",
        "--token": "--device",
        "--p8": "--auth-key", "--key-file": "--auth-key",
        "--pem": "--cert", "--p12": "--cert",
    ]

    /// The parser's `error: Unknown option '--team'. Did you mean '--cert'?` with the apnsctl spelling
    /// instead; any other line as it is.
    static func correcting(_ line: String) -> String {
        let prefix = "error: Unknown option '"
        guard line.hasPrefix(prefix) else { return line }
        let rest = line.dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: "'") else { return line }
        let name = String(rest[..<quote])
        guard let spelling = spellings[name] else { return line }
        return "\(prefix)\(name)'. Did you mean '\(spelling)'?"
    }
}
