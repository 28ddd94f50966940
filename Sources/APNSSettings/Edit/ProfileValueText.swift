import APNSClient
import APNSCore

/// A value for a profile key, typed on the command line, as the TOML text `config set` writes: checked as its
/// flag's value would be (exit 64 naming the key and value), then written in the TOML type a load reads back
/// as the same value (a number bare where the setting takes one, a boolean as `true`/`false`, text quoted).
public enum ProfileValueText {
    /// The TOML text for `values` of `setting` (several only for a repeatable setting: an array), and the
    /// value a load would read from it (a path expanded against `paths`). Messages name `key`, the key as the
    /// user typed it (`history`, which is read as `no-history`'s opposite), else the setting's own name.
    public static func text(
        for setting: Setting, key: String? = nil, values: [String], paths: SettingParser.Paths
    ) throws(SettingsProblem) -> (text: String, value: SettingValue) {
        let name = key ?? setting.name
        if values.count != 1 && !(setting.isRepeatable && values.count > 1) {
            throw .usage(
                values.isEmpty
                    ? "\(name): no value; give one (apnsctl config set \(name) VALUE)"
                    : "\(name) takes one value, \(values.count) given; quote a value holding spaces")
        }
        // A `~` a settings file cannot expand: refused, as every command reading the profile would refuse it.
        if [.path, .credential].contains(setting.kind),
            let problem = values.lazy.compactMap({ SettingParser.tildeProblem($0, paths: paths) }).first
        {
            throw .usage("\(name): \(problem); nothing was written")
        }
        let commands = [SettingCommand.send, .channel, .doctor, .jwt].filter { setting.commands.contains($0) }
        // The flag's own check first, so a bad value reads as it would on the command line.
        var firstProblem: SettingsProblem? = nil
        var accepted = false
        for value in values {
            for command in commands {
                do {
                    _ = try SettingParser.parse(
                        .argument(value), for: setting, command: command, origin: .flag(name), paths: paths)
                    accepted = true
                    break
                } catch {
                    if firstProblem == nil { firstProblem = error }
                }
            }
            if !accepted, let firstProblem { throw firstProblem }
            accepted = false
        }
        // A load refuses a proxy password in the file: so is writing one.
        if setting.kind == .proxy, let url = values.first(where: { (try? ProxyServer(url: $0))?.hasPassword == true }) {
            throw .usage(
                SettingParser.proxyPasswordRefusal("\(name) \(URLPassword.masked(url))")
                    + "; nothing was written")
        }
        // A port is read only for Apple's hosts (an endpoint carries its own): any other one saved in a profile is
        // refused by every send without an endpoint, and ignored beside one.
        if setting.kind == .port, let port = values.first.flatMap({ Int($0) }), port != 443,
            port != 2197
        {
            throw .usage(
                "port \(port): Apple's push hosts listen on 443 and 2197 only; for another server set endpoint https://host:\(port) (it carries its own port); nothing was written"
            )
        }
        // The values one by one passed; together (several endpoints) the setting may still refuse them, and says why.
        var togetherProblem: SettingsProblem? = nil
        for candidate in candidates(for: setting, values: values) {
            guard let toml = tomlValue(candidate) else { continue }
            for command in commands {
                do {
                    let value = try SettingParser.parse(
                        .toml(toml), for: setting, command: command, origin: .flag(name), paths: paths)
                    return (candidate, value)
                } catch {
                    if togetherProblem == nil && values.count > 1 { togetherProblem = error }
                }
            }
        }
        if let togetherProblem { throw togetherProblem }
        throw .usage("\(name): the value cannot be written as TOML this setting reads; edit the file by hand")
    }

    /// `text` (written for `values`) as messages show it: a URL's password as `***` (CLI.md), so `config set proxy
    /// http://u:secret@host` does not echo the secret it wrote.
    public static func shown(_ text: String, values: [String]) -> String {
        let masked = values.map(URLPassword.masked)
        guard masked != values else { return text }
        return values.count > 1 ? "[" + masked.map(quoted).joined(separator: ", ") + "]" : quoted(masked[0])
    }

    /// The TOML texts to try, in order: a number or boolean bare where the text is one, then a string.
    static func candidates(for setting: Setting, values: [String]) -> [String] {
        if values.count > 1 { return ["[" + values.map(quoted).joined(separator: ", ") + "]"] }
        let value = values[0]
        var out: [String] = []
        if setting.kind == .boolean {
            switch value.lowercased() {
            case "1", "true", "yes", "on": out.append("true")
            case "0", "false", "no", "off": out.append("false")
            default: break
            }
        }
        if Int64(value) != nil { out.append(value) }
        if setting.kind == .seconds, Double(value) != nil, value.contains(".") { out.append(value) }
        out.append(quoted(value))
        return out
    }

    /// The value TOML reads from `text`, or nil when it is not one value.
    static func tomlValue(_ text: String) -> TOMLValue? {
        guard let table = try? TOMLParser.parse(Array(("v = " + text).utf8)) else { return nil }
        return table["v"]?.value
    }

    /// `text` as a TOML basic string: `"`, `\`, control characters and bidirectional overrides escaped (the
    /// characters no terminal may get raw: `cat config.toml` would show a reordered line).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if PrintableText.needsEscaping(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A key as TOML writes it: bare when it is letters, digits, `-` and `_`, else quoted.
    public static func key(_ name: String) -> String {
        let bare =
            !name.isEmpty
            && name.utf8.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 95
            }
        return bare ? name : quoted(name)
    }
}
