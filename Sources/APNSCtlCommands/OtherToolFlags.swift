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
        "--body": "--alert", "--message": "--alert",
        "--background": "--content-available",
        "--pass": "--passphrase", "--password": "--passphrase", "--out": "--output",
        "--no-color": "--color never", "--no-colour": "--color never",
        "--ttl": "--expiration", "--expiry": "--expiration", "--text": "--alert", "--msg": "--alert",
        "--bundle-id": "--topic", "--bundle": "--topic",
        // Spellings by meaning whose nearest flag by letters is another (`--cert-file` → `--ca-file`, which would
        // trust the push certificate as a CA; `--app-id` → `--apns-id`).
        "--cert-file": "--cert", "--cert-path": "--cert", "--certificate": "--cert",
        "--p8-file": "--auth-key", "--auth-key-file": "--auth-key", "--keyfile": "--key",
        "--app-id": "--topic", "--push-token": "--device", "--device-token": "--device", "--tokens": "--devices",
        "--environment": "--env", "--passfile": "--passphrase-file", "--password-file": "--passphrase-file",
        "--enviroment": "--env", "--ca": "--ca-file", "--cafile": "--ca-file", "--type": "--push-type",
        "--kid": "--key-id", "--keyid": "--key-id", "--device-file": "--devices", "--devices-file": "--devices",
        "--token-file": "--devices", "--tokens-file": "--devices",
    ]

    /// Enumerated values that read as part of their flag's name when joined to it by a dash (`--replay-last`).
    static let joinableValues: [String: Set<String>] = [
        "--replay": ["last"], "--env": ["sandbox", "production", "development", "both", "auto"],
        "--push-type": Set(PushType.allCases.map(\.rawValue)), "--output": ["json", "text"],
        "--priority": ["10", "5", "1"], "--live-activity": ["start", "update", "end"],
        "--color": ["always", "never", "auto"],
    ]

    /// A spelling's meaning where the command has no flag for its first (`--keyfile`: a certificate's key for
    /// send, the .p8 for jwt).
    static let secondMeanings: [String: String] = ["--keyfile": "--auth-key", "--key-file": "--key"]

    /// curl's way to set a header; its value names the flag instead (`apns-priority: 5` → `--priority 5`).
    static let headerFlags: Set<String> = ["--header", "-H"]

    /// The flag of each request header apnsctl lets the user set.
    static let headerSpellings: [String: String] = [
        "apns-topic": "--topic", "apns-push-type": "--push-type", "apns-priority": "--priority",
        "apns-expiration": "--expiration", "apns-collapse-id": "--collapse-id", "apns-id": "--apns-id",
    ]

    /// What to say after `Unknown option '-H'.` for `-H VALUE`: the header's flag, with the header's value when
    /// it is a plain word (`Did you mean '--priority 5'?`); for the headers apnsctl writes itself, how it fills
    /// them; else the list of header flags. The value of an authorization header is a secret and never repeated.
    static func headerAdvice(_ value: String?) -> String {
        let all = "'" + headerSpellings.values.sorted().joined(separator: "', '") + "'"
        guard let value, let colon = value.firstIndex(of: ":") else {
            return "apnsctl sets request headers with their own flags: \(all)."
        }
        let trimmed = { (part: Substring) in String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        let name = trimmed(value[..<colon]).lowercased()
        let given = trimmed(value[value.index(after: colon)...])
        switch name {
        case "authorization":
            return "apnsctl signs the provider token itself: give '--auth-key AuthKey_KEYID.p8 --team-id TEAMID'."
        case "content-type", "content-length":
            return "apnsctl sends \(name) itself; leave it out."
        default:
            guard let flag = headerSpellings[name] else {
                return "apnsctl sets request headers with their own flags: \(all)."
            }
            let plain =
                !given.isEmpty && given.count <= 64
                && given.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            return plain ? "Did you mean '\(flag) \(given)'?" : "Did you mean '\(flag)'?"
        }
    }

    /// The value given to `flag` in `arguments`: the next argument, or what follows `=` (`--header=…`).
    static func value(of flag: String, in arguments: [String]) -> String? {
        for (i, argument) in arguments.enumerated() {
            if argument == flag { return i + 1 < arguments.count ? arguments[i + 1] : nil }
            if argument.hasPrefix(flag + "=") { return String(argument.dropFirst(flag.count + 1)) }
        }
        return nil
    }

    /// The parser's `error: Unknown option '--team'. Did you mean '--cert'?` with the apnsctl spelling
    /// instead, or for a plain typo the closest of `flags` (the command's own long flags) by the distance
    /// the rest of apnsctl uses, where a swap of two letters counts 1 (`--porxy` is `--proxy`, not `--port`);
    /// any other line as it is.
    static func correcting(_ line: String, flags: [String] = [], arguments: [String] = []) -> String {
        let prefix = "error: Unknown option '"
        guard line.hasPrefix(prefix) else { return line }
        let rest = line.dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: "'") else { return line }
        let name = String(rest[..<quote])
        if headerFlags.contains(name), flags.isEmpty || flags.contains("--push-type") {
            return "\(prefix)\(name)'. \(headerAdvice(value(of: name, in: arguments)))"
        }
        // The other tool's spelling, when this command has the flag it maps to (`jwt --cacert` has no --ca-file),
        // else its second meaning where it has one (`jwt --keyfile`: the .p8).
        for spelling in [spellings[name], secondMeanings[name]].compactMap({ $0 }) {
            let target = spelling.hasPrefix("-o ") ? "--output" : String(spelling.prefix { $0 != " " })
            if flags.isEmpty || flags.contains(target) { return "\(prefix)\(name)'. Did you mean '\(spelling)'?" }
        }
        // jwt's token is its argument (`--token` is send's --device elsewhere, a flag jwt has not).
        if name == "--token", flags.contains("--decode") {
            return "\(prefix)\(name)'. The token is jwt --decode's argument: apnsctl jwt --decode TOKEN, or - to "
                + "read it from standard input"
        }
        // `jwt --key AuthKey_….p8`: the .p8 goes with --auth-key; the nearest flag by letters, --key-id, takes an id.
        if name == "--key", !flags.contains("--key"), flags.contains("--auth-key"),
            value(of: name, in: arguments)?.lowercased().hasSuffix(".p8") == true
        {
            return "\(prefix)\(name)'. Did you mean '--auth-key'?"
        }
        // curl's --silent is less output; a "silent push" is a background one: both, where send has them.
        if name == "--silent", flags.isEmpty || flags.contains("--content-available") {
            return "\(prefix)\(name)'. Did you mean '--quiet' (less output) or '--content-available' (a silent, "
                + "background push)?"
        }
        // curl's body flags: send's payload is its argument.
        if payloadFlags.contains(name) || payloadFileFlags.contains(name), flags.contains("--devices") {
            return "\(prefix)\(name)'. The payload is send's argument: a file, - for standard input, or inline JSON "
                + "starting with { (apnsctl send payload.json -d TOKEN)"
        }
        // `channel delete --id ID`: the id is the argument (the nearest flag was `--yes`, on a command that deletes).
        let words = arguments.prefix { !$0.hasPrefix("-") }
        if words.count >= 2, words.first == "channel", ["get", "delete"].contains(words[words.startIndex + 1]) {
            if ["--id", "--channel", "--channel-id", "--channelid"].contains(name.lowercased()) {
                return "\(prefix)\(name)'. The channel id is the command's argument: apnsctl channel "
                    + "\(words[words.startIndex + 1]) ID"
            }
            if name.lowercased() == "--force", flags.contains("--yes") {
                return "\(prefix)\(name)'. Did you mean '--yes'?"
            }
        }
        guard name.hasPrefix("--") else { return line }
        // `history --status 410`: the history filters by APNs's reason, which names its status.
        if name == "--status", flags.contains("--reason") {
            return "\(prefix)\(name)'. The history filters by APNs's reason, which names the status: --reason REASON"
                + (value(of: name, in: arguments).flatMap { Int($0) }.map(reasonsAdvice) ?? "")
        }
        // `history clear --since 1h`: clear removes what is older, never only the recent; `--before` would remove
        // the opposite of what was asked, so it is said, not offered.
        if name == "--since", flags.contains("--before") {
            return "\(prefix)\(name)'. This command removes every entry, or those started before a time "
                + "(--before WHEN); it cannot remove only the recent ones"
        }
        // `--replay-last`, `--env-production`: a flag and one of its values joined by a dash.
        if let dash = name.dropFirst(2).lastIndex(of: "-") {
            let flag = String(name[..<dash])
            let value = String(name[name.index(after: dash)...])
            if flags.contains(flag), let values = joinableValues[flag],
                values.contains(value) || (flag == "--replay" && !value.isEmpty && value.allSatisfy(\.isNumber))
            {
                return "\(prefix)\(name)'. Did you mean '\(flag) \(value)'?"
            }
        }
        // A flag cut short (`--dry`, `--mutable`) is a start, not a typo: the flags it starts, before the closest.
        let starts = name.count >= 5 ? flags.filter { $0.hasPrefix(name) } : []
        if (1...3).contains(starts.count) {
            return "\(prefix)\(name)'. Did you mean " + starts.map { "'\($0)'" }.joined(separator: " or ") + "?"
        }
        guard let near = Suggestion.closest(to: name, among: flags) else { return line }
        return "\(prefix)\(name)'. Did you mean '\(near)'?"
    }

    /// The reasons APNs answers `status` with, for `--status`'s advice: ` (410 is --reason Unregistered)`.
    static func reasonsAdvice(_ status: Int) -> String {
        let reasons = APNSReason.allCases.filter { $0.status == status }.map(\.rawValue)
        switch reasons.count {
        case 0: return " (APNs answers \(status) with no reason)"
        case 1: return " (\(status) is --reason \(reasons[0]))"
        case 2...4: return " (\(status) is " + reasons.map { "--reason \($0)" }.joined(separator: " or ") + ")"
        default: return " (\(status) is one of \(reasons.count) reasons, such as --reason \(reasons[0]))"
        }
    }

    /// `apnsctl -o json validate x.json`: a flag of a subcommand given before its name, where the command it
    /// was given to has no such flag. The advice is the command line with the flag (and what follows it up to
    /// the subcommand) moved after the subcommand's name; nil when the line is about anything else.
    static func misplacedBeforeSubcommand(_ line: String, arguments: [String]) -> String? {
        let prefix = "error: Unknown option '"
        guard line.hasPrefix(prefix), let quote = line.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        let name = String(line.dropFirst(prefix.count)[..<quote])
        guard let i = arguments.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else { return nil }
        var command: ParsableCommand.Type = APNSCtl.self
        var path: [String] = []
        for word in arguments[..<i] {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            (command, path) = (next, path + [word])
        }
        let names = Set(command.configuration.subcommands.map { $0._commandName })
        // The subcommand right after the flag or its value: `-o json help validate` is no such slip.
        guard let j = arguments[(i + 1)...].firstIndex(where: { names.contains($0) }), j <= i + 2,
            flagNames(of: path + [arguments[j]]).contains(name)
        else { return nil }
        let moved = Array(arguments[..<i]) + [arguments[j]] + arguments[i..<j] + arguments[(j + 1)...]
        return
            "error: \(name) is an option of \((path + [arguments[j]]).joined(separator: " ")) and goes after its name: "
            + "apnsctl \(moved.map(ShellWord.of).joined(separator: " "))"
    }

    /// curl's flags for the request body.
    static let payloadFlags: Set<String> = ["--data", "--data-binary", "--data-raw", "--data-ascii"]

    /// Other senders' flags for the payload's file (`--file` was "did you mean '--title'", which sent an alert
    /// titled with the file's name).
    static let payloadFileFlags: Set<String> = [
        "--payload", "--file", "-f", "--json-file", "--payload-file", "--json-payload",
    ]

    /// The long flags of the command `arguments` name (`send`, `channel create`), from its help text, but for
    /// `--help` and `--version`.
    static func longFlags(of arguments: [String]) -> [String] {
        flagNames(of: arguments).filter { $0.hasPrefix("--") && $0 != "--help" && $0 != "--version" }
    }

    /// The first `--name` (or `--name=value`) before any `--` that the command `arguments` name has no flag for; nil
    /// when every one is its own. Its help text is read only when such a word is there.
    static func unknownLongFlag(in arguments: [String]) -> String? {
        let names = arguments.prefix { $0 != "--" }.map { String($0.prefix { $0 != "=" }) }.filter {
            $0.count > 2 && $0.hasPrefix("--")
                && $0.dropFirst(2).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        guard !names.isEmpty else { return nil }
        let known = Set(flagNames(of: arguments)).union(["--help", "--version"])
        return names.first { !known.contains($0) }
    }

    /// Whether `name` is a flag of the command `arguments` name that takes no value (`jwt --decode`), by its help
    /// text: the word after it is an argument of its own.
    static func takesNoValue(_ name: String, of arguments: [String]) -> Bool {
        flags(of: arguments).contains { $0.names.contains(name) && !$0.takesValue }
    }

    /// Every flag name of the command `arguments` name, short and long (`-d`, `--device`, `-h`), from its help text.
    static func flagNames(of arguments: [String]) -> [String] { flags(of: arguments).flatMap(\.names) }

    /// The short flags of the command `arguments` name (`-d`, `-q`), and those of them that take a value (`-d`),
    /// from one reading of its help text.
    static func shortFlags(of arguments: [String]) -> (all: Set<String>, takingValues: Set<String>) {
        var all: Set<String> = []
        var takingValues: Set<String> = []
        for flag in flags(of: arguments) {
            let short = flag.names.filter { !$0.hasPrefix("--") }
            all.formUnion(short)
            if flag.takesValue { takingValues.formUnion(short) }
        }
        return (all, takingValues)
    }

    /// One flag line of a help text, `-d, --device, --channel <id>  Help…`: every name before the value (however
    /// many a flag has), and whether a value follows. The help text starts after two spaces (the parser pads the
    /// column with at least two), so a help text that starts with a dash is never read as a name.
    static func flagLine(_ line: Substring) -> (names: [String], takesValue: Bool) {
        let head = line.firstRange(of: "  ").map { line[..<$0.lowerBound] } ?? line
        var names: [String] = []
        var takesValue = false
        for word in head.split(separator: " ") {
            if word.hasPrefix("<") {
                takesValue = true
                break
            }
            // The names come first and together: a discussion's example line (`-H 'apns-topic: …' -d …`) names
            // only its first word.
            guard word.hasPrefix("-") else { break }
            let name = word.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if name.hasPrefix("-"), name.count > 1, name != "--" { names.append(String(name)) }
        }
        return (names, takesValue)
    }

    /// Each flag line of the help text of the command `arguments` name: its names, and whether a value follows.
    private static func flags(of arguments: [String]) -> [(names: [String], takesValue: Bool)] {
        var command: ParsableCommand.Type = APNSCtl.self
        for word in arguments {
            guard !word.hasPrefix("-"),
                let next = command.configuration.subcommands.first(where: { $0._commandName == word })
            else { break }
            command = next
        }
        // `history --status`: the flags of a group not followed by one of its commands are its default one's, as the
        // parser reads them.
        if let fallback = command.configuration.defaultSubcommand { command = fallback }
        guard command != APNSCtl.self else { return [] }
        var flags: [(names: [String], takesValue: Bool)] = []
        for line in APNSCtl.helpMessage(for: command, columns: 10_000).split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { continue }
            flags.append(flagLine(trimmed))
        }
        return flags
    }
}
