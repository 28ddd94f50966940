import APNSCore
import APNSSettings

/// `--dismissal-date -5m`, `--relevance-score -1`, `--collapse-id -x`: the parser reads a value starting with `-`
/// as a flag and says only "Missing value". This names the value and says what to write instead: for a negative
/// duration, that durations count forward from now (TimeValue's own wording, as for `--dismissal-date=-5m`); for a
/// value the flag refuses anyway (`--badge -1`), that refusal; for any other value, the `--flag=VALUE` form that
/// passes it. A word that is one of the command's own flags (`--title -d TOKEN`) is a value left out, and stays
/// the parser's "Missing value".
enum DashValueAdvice {
    /// The flags whose value is a WHEN (CLI.md: `--expiration`, `--stale-date`, `--dismissal-date`), each read
    /// as its flag reads it.
    private static let whenFlags: [String: TimeValue.Syntax] = [
        "--expiration": .expiration, "--stale-date": .activityDate, "--dismissal-date": .activityDate,
    ]

    /// The parser's `error: Missing value for '--flag <value>'` with the advice when `arguments` show the flag
    /// followed by a value starting with `-` and a digit, or with `-` and a word `isCommandFlag` says is none of the
    /// command's flags (nor a cluster of its short ones); any other line as it is. The advice is followed first:
    /// `reparse` parses the command line written `--flag=VALUE` and gives its first error line (nil when it
    /// parses), and a setting's value is read as the setting reads it, so a value the flag refuses anyway is
    /// said so, not given advice that fails.
    /// `earlier` are the values already corrected on the way here (`--flag VALUE` as given, and the `--flag=VALUE`
    /// word to write): the advice names them all, as the user must write each.
    static func correcting(
        _ line: String, arguments: [String], reparse: ([String]) -> String? = { _ in nil },
        isCommandFlag: (String) -> Bool = { _ in true }, earlier: [(given: String, word: String)] = []
    ) -> String {
        // Another problem found after values already corrected: it is said, and so are they.
        let alsoEarlier = { (line: String) in
            earlier.isEmpty ? line : line + "; also write " + earlier.map(\.word).joined(separator: " ")
        }
        let prefix = "error: Missing value for '"
        guard line.hasPrefix(prefix) else { return alsoEarlier(line) }
        let flag = String(line.dropFirst(prefix.count).prefix { $0 != " " && $0 != "'" })
        guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return alsoEarlier(line) }
        let value = arguments[i + 1]
        guard value.hasPrefix("-"), let first = value.dropFirst().first,
            first.isNumber || (first != "-" && !isCommandFlag(value))
        else { return alsoEarlier(line) }
        if let when = whenFlags[flag] {
            do {
                _ = try TimeValue.parse(value, now: 0, as: when)
            } catch {
                return alsoEarlier("error: \(flag) \(error.message)")
            }
        }
        // A secret's value is never printed, whatever it looks like.
        let setting = SettingCatalog.setting(String(flag.dropFirst(2)))
        if setting?.isSecret == true {
            return "error: \(flag): a value starting with - reads as a flag; write "
                + (earlier.map(\.word) + ["\(flag)=VALUE"]).joined(separator: " ")
        }
        var corrected = arguments
        corrected.replaceSubrange(i...(i + 1), with: ["\(flag)=\(value)"])
        // The value is pasted back into a shell: one word, quoted when it holds a space or a quote. One with a
        // line break or another control character is shown escaped, so it is named, not given to paste.
        let word =
            PrintableText.escapingControls(value) == value ? ShellWord.of("\(flag)=\(value)") : "\(flag)=VALUE"

        // The second parse may stop at another such value: it gets the same advice, one value less each time.
        if let refusal = reparse(corrected) {
            // The flag refuses the value itself: that is the problem to say, with only the values corrected before.
            if refusal.hasPrefix("error: \(flag) ") || refusal.hasPrefix("error: \(flag):") {
                return alsoEarlier(refusal)
            }
            return correcting(
                refusal, arguments: corrected, reparse: reparse, isCommandFlag: isCommandFlag,
                earlier: earlier + [("\(flag) \(value)", word)])
        }
        if let setting, let command = SettingCommand.allCases.first(where: setting.commands.contains) {
            do { _ = try SettingParser.parseFlag(value, for: setting, command: command) } catch {
                return alsoEarlier("error: " + error.message)
            }
        }
        if let field = PayloadField.allCases.first(where: { $0.flag == flag }) {
            do { try PayloadBuilder.checkValue(value, of: field, now: 0) } catch {
                return alsoEarlier("error: " + error.message)
            }
        }
        if let problem = perRunProblem(flag: flag, value: value) { return alsoEarlier("error: " + problem) }
        let all = earlier + [("\(flag) \(value)", word)]
        return "error: \(all.map(\.given).joined(separator: ", ")): "
            + (all.count == 1 ? "a value starting with - reads as a flag" : "values starting with - read as flags")
            + "; write \(all.map(\.word).joined(separator: " "))"
    }

    /// Whether `line`, made by `correcting` from a "Missing value" line, says the value is refused (rather than
    /// still missing, or to be written with `=`).
    static func isRefusal(_ line: String) -> Bool {
        !line.hasPrefix("error: Missing value for '") && !line.contains("starting with - read")
    }

    /// The check a flag that is no setting and no payload flag makes of its value when the command runs (the same
    /// function, asked here), so the advice never names a value it refuses.
    private static func perRunProblem(flag: String, value: String) -> String? {
        switch flag {
        case "--apns-id", "--request-id":
            do { _ = try HeaderValueCheck.canonicalUUID(value, flag: flag) } catch { return error.message }
        case "--limit":
            return APNSCtl.History.List.limitProblem(value)
        case "--since", "--before":
            return HistoryTime.signedDurationProblem(value, flag: flag)
        default: break
        }
        return nil
    }

    /// A value starting with `-` and a digit where a command takes values (`config set expiration -30m`): the
    /// parser says `Unknown option '-30m'` (or, for `-1h`, shows help, as `h` reads as `-h`). The advice is `--`
    /// before it, unless the key's setting refuses the value anyway, which is then said instead. `word` is that
    /// value; nil when `arguments` hold none such.
    static func positionalWord(in arguments: [String]) -> String? {
        arguments.first { $0.hasPrefix("-") && $0.dropFirst().first?.isNumber == true }
    }

    /// The line for `word` (see `positionalWord`), or nil when it is no such value.
    static func positionalAdvice(_ word: String, arguments: [String]) -> String? {
        guard let i = arguments.firstIndex(of: word), word.dropFirst().first?.isNumber == true else { return nil }
        // `config set KEY VALUE`: the key is checked as config set checks it (a secret key is refused whatever its
        // value, which is never printed), then its setting reads the value, as config set would after `--`.
        if arguments.starts(with: ["config", "set"]), i > 0, SettingCatalog.setting(arguments[i - 1]) != nil {
            let setting: Setting
            do { setting = try ProfileKeyCheck.setting(arguments[i - 1], value: nil) } catch {
                return "error: " + (error.message ?? "")
            }
            if let command = SettingCommand.allCases.first(where: setting.commands.contains) {
                do { _ = try SettingParser.parseFlag(word, for: setting, command: command) } catch {
                    // Named as config set names it, by its key.
                    let flag = "--\(setting.name) "
                    let message =
                        error.message.hasPrefix(flag)
                        ? setting.name + " " + error.message.dropFirst(flag.count) : error.message
                    return "error: " + message
                }
            }
        }
        // Only the word is named: the command line around it may hold a passphrase or a URL's password.
        let shown = PrintableText.escapingControls(word)
        return
            "error: \(shown): a value starting with - reads as a flag; write -- before it, after every flag (-- \(shown))"
    }
}
