import APNSCore
import ArgumentParser

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
    /// instead, or for a plain typo the closest of `flags` (the command's own long flags) by the distance
    /// the rest of apnsctl uses, where a swap of two letters counts 1 (`--porxy` is `--proxy`, not `--port`);
    /// any other line as it is.
    static func correcting(_ line: String, flags: [String] = []) -> String {
        let prefix = "error: Unknown option '"
        guard line.hasPrefix(prefix) else { return line }
        let rest = line.dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: "'") else { return line }
        let name = String(rest[..<quote])
        // The other tool's spelling, when this command has the flag it maps to (`jwt --cacert` has no --ca-file).
        if let spelling = spellings[name] {
            let target = spelling.hasPrefix("-o ") ? "--output" : String(spelling.prefix { $0 != " " })
            if flags.isEmpty || flags.contains(target) { return "\(prefix)\(name)'. Did you mean '\(spelling)'?" }
        }
        guard name.hasPrefix("--"), let near = Suggestion.closest(to: name, among: flags) else { return line }
        return "\(prefix)\(name)'. Did you mean '\(near)'?"
    }

    /// The long flags of the command `arguments` name (`send`, `channel create`), from its help text.
    static func longFlags(of arguments: [String]) -> [String] {
        var command: ParsableCommand.Type = APNSCtl.self
        for word in arguments {
            guard !word.hasPrefix("-"),
                let next = command.configuration.subcommands.first(where: { $0._commandName == word })
            else { break }
            command = next
        }
        guard command != APNSCtl.self else { return [] }
        var flags: [String] = []
        for line in APNSCtl.helpMessage(for: command, columns: 10_000).split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { continue }
            // `-c, --cert <file>  Help…`: the names before the value and the help text.
            for word in trimmed.split(separator: " ").prefix(3) {
                let name = word.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
                if name.hasPrefix("--"), name.count > 2, name != "--help", name != "--version" {
                    flags.append(String(name))
                }
            }
        }
        return flags
    }
}
