import APNSCore
import APNSPlatform

/// What `apnsctl config show` and `config list` print, as lines: text for people, JSON Lines for scripts.
/// Rendered here (not in the executable) so it is tested in-process; nothing here prints a secret: values
/// go through `SettingValue.display`, which hides passphrases, PEM text and proxy passwords.
public enum SettingsReport {
    // MARK: config show

    /// One line per setting of the command, the chosen profile first: `NAME  VALUE  ORIGIN`, aligned.
    public static func showText(_ r: ResolvedSettings) -> [String] {
        var rows: [(String, String, String)] = []
        if let p = r.profile {
            rows.append(("profile", p.value.escapingControls(), profileOrigin(p.origin).escapingControls()))
        }
        for (setting, value) in r.listing {
            if let value {
                rows.append(
                    (
                        setting.name, shownValue(value, of: setting).escapingControls(),
                        value.origin.description.escapingControls()
                    ))
            } else if setting.kind == .boolean {
                rows.append((setting.name, "false", "default"))
            } else {
                rows.append((setting.name, "(" + (setting.unsetNote(for: r.command) ?? "not set") + ")", "default"))
            }
        }
        let w0 = rows.map(\.0.count).max() ?? 0
        let w1 = min(rows.map(\.1.count).max() ?? 0, 48)
        return rows.map { row in
            let a = row.0 + String(repeating: " ", count: w0 - row.0.count)
            let b = row.1 + String(repeating: " ", count: max(0, w1 - row.1.count))
            return "\(a)  \(b)  \(row.2)"
        }
    }

    /// One JSON object per setting: `{"setting":…,"value":…,"origin":…}` plus `flag`, `variable`, or
    /// `profile`/`file`/`line` as the origin has them; an unset setting has `"value":null` and a `note`.
    public static func showJSON(_ r: ResolvedSettings) -> [String] {
        var lines: [String] = []
        if let p = r.profile {
            var w = JSONWriter()
            w.beginObject()
            w.field("setting", "profile")
            w.field("value", p.value)
            originFields(p.origin, into: &w)
            w.endObject()
            lines.append(String(decoding: w.bytes, as: UTF8.self))
        }
        for (setting, value) in r.listing {
            var w = JSONWriter()
            w.beginObject()
            w.field("setting", setting.name)
            w.key("value")
            if let value {
                jsonValue(value, of: setting, into: &w)
                originFields(value.origin, into: &w)
            } else {
                if setting.kind == .boolean { w.bool(false) } else { w.null() }
                w.field("origin", "default")
                if let note = setting.unsetNote(for: r.command) { w.field("note", note) }
            }
            w.endObject()
            lines.append(String(decoding: w.bytes, as: UTF8.self))
        }
        return lines
    }

    private static func jsonValue(_ sourced: Sourced<SettingValue>, of setting: Setting, into w: inout JSONWriter) {
        let v = sourced.value
        if case .variable = sourced.origin, !VariableEcho.mayEcho(v.display) {
            w.string(shownValue(sourced, of: setting))
            return
        }
        if let hidden = hiddenSecretFile(v, of: setting) {
            w.string(hidden)
            return
        }
        switch v {
        case .boolean(let b): w.bool(b)
        case .integer(let n): w.number(n)
        case .seconds(let d): if d == d.rounded(), abs(d) < 1e15 { w.number(Int(d)) } else { w.number(d) }
        case .priority(let p): w.number(p.rawValue)
        case .endpoints(_, let given):
            w.beginArray()
            for g in given { w.string(URLPassword.masked(g)) }
            w.endArray()
        default: w.string(v.display)
        }
    }

    private static func originFields(_ origin: SettingOrigin, into w: inout JSONWriter) {
        w.field("origin", origin.kind)
        switch origin {
        case .flag(let f): w.field("flag", f)
        case .variable(let v): w.field("variable", v)
        case .profile(let name, let file, let line):
            w.field("profile", name)
            w.field("file", file)
            w.field("line", line)
        case .mock(let profile, let file):
            w.field("profile", profile)
            w.field("file", file)
        case .defaultValue: break
        }
    }

    /// What `config show` and `-v` print for a value (not yet escaped): its `display`, except that a variable's
    /// value too long or with a line break to quote is described, not shown, and so is a passphrase file that
    /// names no file.
    private static func shownValue(_ value: Sourced<SettingValue>, of setting: Setting) -> String {
        if let hidden = hiddenSecretFile(value.value, of: setting) { return hidden }
        let text = value.value.display
        if case .variable = value.origin, !VariableEcho.mayEcho(text) { return VariableEcho.shown(text) }
        return text
    }

    /// What stands for a passphrase file's path that names no file: it may be the passphrase itself.
    static func hiddenSecretFile(_ value: SettingValue, of setting: Setting) -> String? {
        guard setting.isSecretFile, case .path(let path) = value, path != "-", !FileSystem.exists(path) else {
            return nil
        }
        return "(hidden: no such file)"
    }

    /// The chosen profile's origin: where it was chosen, not where it is defined.
    private static func profileOrigin(_ origin: SettingOrigin) -> String {
        if case .profile(_, let file, let line) = origin { return "default-profile, \(file):\(line)" }
        return origin.description
    }

    // MARK: -v

    /// `send -v`'s origin lines, printed before connecting: one `* NAME VALUE (ORIGIN)` per setting that has a
    /// value other than a plain default (`* topic com.example.app (profile dev, /…/config.toml:7)`). Built from
    /// the same values and origins as `config show`, so the two cannot disagree.
    public static func verboseLines(_ r: ResolvedSettings) -> [String] {
        var lines: [String] = []
        if let p = r.profile { lines.append("* profile \(p.value) (\(profileOrigin(p.origin)))") }
        for (setting, value) in r.listing {
            guard let value, value.origin != .defaultValue else { continue }
            lines.append("* \(setting.name) \(shownValue(value, of: setting)) (\(value.origin.description))")
        }
        return lines.map { $0.escapingControls() }
    }

    // MARK: config list

    /// Profiles (the default marked, then the built-in mock unless the file has one) and device names.
    public static func listText(_ file: SettingsFile?, mockReadyFile: String) -> [String] {
        var lines: [String] = []
        for p in file?.profiles ?? [] {
            let mark = file?.defaultProfile?.name == p.name ? " (default)" : ""
            lines.append("profile \(p.name)\(mark)  \(p.path(in: file)):\(p.line)")
        }
        for name in MockProfile.names where file?.profile(name) == nil {
            let mark = file?.defaultProfile?.name == name ? " (default)" : ""
            let auth = name == MockProfile.tokenName ? ", token auth" : ""
            // No home for the default state dir: no file to name (APNSCTL_MOCK_STATE_DIR names one).
            let file =
                mockReadyFile.isEmpty
                ? "mock.json (no home for its default state dir; set APNSCTL_MOCK_STATE_DIR)" : mockReadyFile
            lines.append("profile \(name)\(mark)  built in: apnsctl mock's \(file)\(auth)")
        }
        for d in deviceRows(file) {
            let owner = d.profile.map { "profile \($0), " } ?? ""
            lines.append("device \(d.entry.name)  \(tokenText(d.entry.value))  \(owner)\(d.file):\(d.entry.line)")
        }
        return lines.map { $0.escapingControls() }
    }

    /// The same as JSON Lines: `{"profile":…,"default":…,"file":…,"line":…}`, `{"device":…,"token":…,…}`.
    public static func listJSON(_ file: SettingsFile?, mockReadyFile: String) -> [String] {
        var lines: [String] = []
        func line(_ build: (inout JSONWriter) -> Void) {
            var w = JSONWriter()
            w.beginObject()
            build(&w)
            w.endObject()
            lines.append(String(decoding: w.bytes, as: UTF8.self))
        }
        for p in file?.profiles ?? [] {
            line { w in
                w.field("profile", p.name)
                w.field("default", file?.defaultProfile?.name == p.name)
                w.field("file", p.path(in: file))
                w.field("line", p.line)
            }
        }
        for name in MockProfile.names where file?.profile(name) == nil {
            line { w in
                w.field("profile", name)
                w.field("default", file?.defaultProfile?.name == name)
                w.field("builtin", true)
                w.field("file", mockReadyFile.isEmpty ? nil : mockReadyFile)
            }
        }
        for d in deviceRows(file) {
            line { w in
                w.field("device", d.entry.name)
                w.field("token", tokenText(d.entry.value))
                w.key("profile")
                if let p = d.profile { w.string(p) } else { w.null() }
                w.field("file", d.file)
                w.field("line", d.entry.line)
            }
        }
        return lines
    }

    private static func deviceRows(_ file: SettingsFile?) -> [(
        entry: SettingsFile.DeviceName, profile: String?, file: String
    )] {
        guard let file else { return [] }
        return file.devices.map { ($0, nil, file.path) }
            + file.profiles.flatMap { p in p.devices.map { ($0, p.name, file.path) } }
    }

    private static func tokenText(_ value: TOMLValue) -> String {
        if case .string(let s) = value { return s }
        return RawSetting.tomlText(value)
    }
}

extension SettingsFile.Profile {
    /// The file a profile is defined in.
    func path(in file: SettingsFile?) -> String { file?.path ?? "" }
}
