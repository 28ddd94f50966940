import APNSCore

/// Why settings could not be read or resolved. Every case is one `error:` line naming where (the flag, the
/// variable, or `PATH:LINE`) and what to do; none quotes a secret. `exitCode` is CLI.md's: 66 for a file
/// that must exist and does not, 64 for everything else.
public struct SettingsProblem: Error, Sendable, Equatable {
    /// What kind of failure, for the exit code.
    public enum Kind: Sendable, Equatable {
        /// A bad file, value, combination or name: exit 64.
        case usage
        /// A settings file or `mock.json` that was asked for and is missing or unreadable: exit 66.
        case inputMissing
    }

    /// A settings file's line at fault that removing mends: what `apnsctl config unset` or `remove-device`
    /// takes out, as every command refuses the file until then.
    public enum Mend: Sendable, Equatable {
        /// A key of a profile, or of the top level (`profile` nil).
        case key(String, profile: String?)
        /// A device name in `[devices]`, or in a profile's own (`profile`).
        case device(String, profile: String?)
    }

    public let kind: Kind
    /// The whole message, without the `error: ` prefix.
    public let message: String
    /// The line whose removal mends the file, when one does.
    public let mend: Mend?

    public init(_ kind: Kind = .usage, _ message: String, mend: Mend? = nil) {
        (self.kind, self.message, self.mend) = (kind, message, mend)
    }

    static func usage(_ message: String, mend: Mend? = nil) -> SettingsProblem {
        SettingsProblem(.usage, message, mend: mend)
    }

    /// The problem with the command that removes its line, for the file at `location`: `--config FILE` is in the
    /// command when the file was named by that flag (the variable names it for every command).
    /// With the file's `bytes`, the removal is tried on them first: a line the editor cannot take out in place (one
    /// of two `[[…]]` headers, say) gets "edit the file by hand", never a command that would then refuse.
    public func withMendingCommand(for location: SettingsLocation, bytes: [UInt8]? = nil) -> SettingsProblem {
        guard let mend else { return self }
        if let bytes, !Self.removes(mend, from: bytes, path: location.path) {
            return SettingsProblem(kind, message + " (apnsctl config cannot remove it in place; edit the file by hand)")
        }
        // Names a terminal would act on are printed escaped, and a command pasted from that names other ones.
        let names: [String?]
        switch mend {
        case .key(let key, let profile), .device(let key, let profile): names = [key, profile, location.path]
        }
        guard names.allSatisfy({ $0.map { PrintableText.escapingControls($0) == $0 } ?? true }) else { return self }
        let (subcommand, name, profile, removes) =
            switch mend {
            case .key(let key, let profile): ("unset", key, profile, "removes the line")
            case .device(let device, let profile): ("remove-device", device, profile, "removes it")
            }
        var words = ["apnsctl", "config", subcommand] + location.configFlagWords
        // A name starting with - (TOML allows the bare key -x) would read as a flag.
        if let profile {
            words += profile.hasPrefix("-") ? [ShellWord.of("--profile=" + profile)] : ["-p", ShellWord.of(profile)]
        }
        words += (name.hasPrefix("-") ? ["--"] : []) + [ShellWord.of(name)]
        // Said once: the problem returned has no mend left to add.
        return SettingsProblem(kind, message + " (\(words.joined(separator: " ")) \(removes))")
    }

    /// Whether `config unset` or `remove-device` would take `mend`'s line out of `bytes`.
    public static func removes(_ mend: Mend, from bytes: [UInt8], path: String) -> Bool {
        guard var editor = try? SettingsEditor.forRepair(path: path, bytes: bytes) else { return false }
        switch mend {
        case .key(let key, let profile):
            return (try? editor.remove(key, from: profile.map { ["profiles", $0] } ?? [])) == true
        case .device(let name, let profile):
            return (try? editor.remove(name, from: profile.map { ["profiles", $0, "devices"] } ?? ["devices"])) == true
        }
    }

    static func missing(_ message: String) -> SettingsProblem { SettingsProblem(.inputMissing, message) }

    /// The exit code of CLI.md.
    public var exitCode: Int32 { kind == .inputMissing ? 66 : 64 }
}
