import APNSCore

/// The settings file, read and checked whole: whatever command runs, a file with a syntax error, a key that
/// is no flag of any command, a `passphrase`, a per-run input, or a device name made only of hex digits is
/// refused (exit 64, `PATH:LINE`, and `:COLUMN` for syntax). Values stay TOML until a command uses them: a
/// value of the wrong type is an error only for a command that reads it.
public struct SettingsFile: Sendable, Equatable {
    /// A `[profiles.NAME]` table.
    public struct Profile: Sendable, Equatable {
        public let name: String
        public let line: Int
        /// Setting name → its TOML node (with the key's line), in file order.
        public let values: [(name: String, node: TOMLNode)]
        /// `[profiles.NAME.devices]`.
        public let devices: [DeviceName]

        public static func == (a: Profile, b: Profile) -> Bool {
            a.name == b.name && a.line == b.line && a.devices == b.devices
                && a.values.map(\.name) == b.values.map(\.name) && a.values.map(\.node) == b.values.map(\.node)
        }

        /// The node for `setting`, if the profile sets it.
        public func node(_ setting: String) -> TOMLNode? { values.first { $0.name == setting }?.node }
    }

    /// One entry of a `[devices]` table.
    public struct DeviceName: Sendable, Equatable {
        public let name: String
        public let value: TOMLValue
        public let line: Int
    }

    public let path: String
    public let defaultProfile: (name: String, line: Int)?
    public let profiles: [Profile]
    /// The top-level `[devices]`.
    public let devices: [DeviceName]

    public static func == (a: SettingsFile, b: SettingsFile) -> Bool {
        a.path == b.path && a.defaultProfile?.name == b.defaultProfile?.name
            && a.defaultProfile?.line == b.defaultProfile?.line
            && a.profiles == b.profiles && a.devices == b.devices
    }

    /// The profile called `name`.
    public func profile(_ name: String) -> Profile? { profiles.first { $0.name == name } }

    /// The keys the top level may hold.
    static let topLevelKeys = ["default-profile", "profiles", "devices"]

    /// Parses and checks `bytes`, read from `path` (named in every message).
    public static func parse(_ bytes: [UInt8], path: String) throws(SettingsProblem) -> SettingsFile {
        let root: TOMLTable
        do { root = try TOMLParser.parse(bytes) } catch {
            throw .usage("\(path):\(error.position.line):\(error.position.column): \(error.message)")
        }
        func at(_ node: TOMLNode) -> String { "\(path):\(node.position.line)" }

        var defaultProfile: (String, Int)? = nil
        var profiles: [Profile] = []
        var devices: [DeviceName] = []
        for (key, node) in root.entries {
            switch key {
            case "default-profile":
                guard case .string(let name) = node.value, !name.isEmpty else {
                    let found = node.value == .string("") ? "an empty string" : node.value.typeName
                    throw .usage(
                        "\(at(node)): default-profile must be a profile's name in quotes, found \(found)",
                        mend: Self.mend(key, node, profile: nil))
                }
                defaultProfile = (name, node.position.line)
            case "profiles":
                guard case .table(let table) = node.value else {
                    throw .usage("\(at(node)): profiles must be tables, written [profiles.NAME]")
                }
                for (name, profileNode) in table.entries {
                    profiles.append(try profile(name, profileNode, path: path))
                }
            case "devices":
                devices = try deviceTable(node, path: path, section: "[devices]", profile: nil)
            default:
                if SettingCatalog.setting(key)?.isSecret == true {
                    // Moving it into a profile, as for any other setting, would only meet the refusal there.
                    throw .usage(
                        "\(at(node)): passphrase at the top level: secrets never come from the settings file; use passphrase-file = \"FILE\" in a profile, --passphrase-file FILE, or APNSCTL_PASSPHRASE",
                        mend: Self.mend(key, node, profile: nil))
                }
                if SettingCatalog.setting(key) != nil {
                    throw .usage(
                        "\(at(node)): \(PrintableText.quoted(key)) at the top level; settings go in a profile: put it under [profiles.NAME]",
                        mend: Self.mend(key, node, profile: nil))
                }
                let near =
                    Suggestion.closest(to: key, among: topLevelKeys).map {
                        "did you mean \(PrintableText.quoted($0))? "
                    }
                    ?? ""
                throw .usage(
                    "\(at(node)): unknown key \"\(key.escapingControls())\" at the top level; \(near)the top level holds default-profile, [profiles.NAME] and [devices]",
                    mend: Self.mend(key, node, profile: nil))
            }
        }
        return SettingsFile(path: path, defaultProfile: defaultProfile, profiles: profiles, devices: devices)
    }

    private static func profile(_ name: String, _ node: TOMLNode, path: String) throws(SettingsProblem) -> Profile {
        let section = "[profiles.\(name.escapingControls())]"
        guard case .table(let table) = node.value else {
            throw .usage(
                "\(path):\(node.position.line): profiles.\(name.escapingControls()) must be a table, written \(section)"
            )
        }
        var values: [(String, TOMLNode)] = []
        var devices: [DeviceName] = []
        for (key, valueNode) in table.entries {
            let at = "\(path):\(valueNode.position.line)"
            if key == "devices" {
                devices = try deviceTable(valueNode, path: path, section: "[profiles.\(name).devices]", profile: name)
                continue
            }
            if SettingCatalog.setting(key)?.isSecret == true {
                // The value is never echoed: it is a secret the user meant to keep.
                throw .usage(
                    "\(at): passphrase in \(section): secrets never come from the settings file; use passphrase-file = \"FILE\" in the profile, --passphrase-file FILE, or APNSCTL_PASSPHRASE",
                    mend: Self.mend(key, valueNode, profile: name))
            }
            if SettingCatalog.perRunInputs.contains(key) {
                throw .usage(
                    "\(at): \(PrintableText.quoted(key)) in \(section) is an input of one run, not a setting; give it on the command line",
                    mend: Self.mend(key, valueNode, profile: name))
            }
            // CLI.md's spelling of the history's off switch: `history = false` is `no-history = true`.
            if let other = SettingCatalog.otherHistorySpelling(key), table.entries.contains(where: { $0.key == other })
            {
                // Two spellings of one switch: whichever came first would win, unseen.
                throw .usage(
                    "\(at): \(key) and \(other) both in \(section): they are one switch (history = false is no-history = true); delete one of the two lines",
                    mend: Self.mend(key, valueNode, profile: name))
            }
            if key == SettingCatalog.historyKey {
                guard case .boolean(let on) = valueNode.value else {
                    // A switch of the wrong type, not an unknown key: deleting the line would turn the history on.
                    throw .usage(
                        "\(at): history = \(RawSetting.tomlText(valueNode.value).escapingControls()): expected true or "
                            + "false, found \(valueNode.value.typeName)")
                }
                values.append((Setting.of(.noHistory).name, TOMLNode(.boolean(!on), at: valueNode.position)))
                continue
            }
            guard SettingCatalog.setting(key) != nil else {
                let near =
                    ProfileKeyAdvice.suggestion(for: key, value: valueNode.value).map { "; " + $0 }
                    ?? "; a profile's keys are the long flags of send, channel, doctor and jwt, as apnsctl send --help lists them"
                throw .usage(
                    "\(at): unknown key \"\(key.escapingControls())\" in \(section)\(near)",
                    mend: Self.mend(key, valueNode, profile: name))
            }
            values.append((key, valueNode))
        }
        return Profile(
            name: name, line: node.position.line, values: values.map { (name: $0.0, node: $0.1) }, devices: devices)
    }

    /// Removing `key`'s line mends the file when it is one plain `key = value` line: a table (`a.b = 1`,
    /// `[profiles.dev.sub]`) or an empty name is more than `config unset` changes, and is left to an editor.
    private static func mend(_ key: String, _ node: TOMLNode, profile: String?) -> SettingsProblem.Mend? {
        if key.isEmpty { return nil }
        if case .table = node.value { return nil }
        return .key(key, profile: profile)
    }

    /// A `[devices]` table: names to tokens. A name that reads as a token (hex digits only, Xcode's `<…>` form) is
    /// refused: `-d VALUE` must be
    /// either a token or a name, never both.
    private static func deviceTable(_ node: TOMLNode, path: String, section: String, profile: String?)
        throws(SettingsProblem) -> [DeviceName]
    {
        guard case .table(let table) = node.value else {
            throw .usage(
                "\(path):\(node.position.line): \(section.dropFirst().dropLast()) must be a table of names, written \(section) with name = \"TOKEN\" lines"
            )
        }
        var out: [DeviceName] = []
        for (name, valueNode) in table.entries {
            if let why = DeviceNames.tokenReading(name) {
                let mended = DeviceNames.isHexOnly(name) ? "a name with another letter (my-\(name))" : "another name"
                throw .usage(
                    "\(path):\(valueNode.position.line): device name \(PrintableText.quoted(name)) in \(section) \(why), so -d \(ShellWord.of(name)) would read as a token; give it \(mended)",
                    mend: name.isEmpty ? nil : .device(name, profile: profile))
            }
            out.append(DeviceName(name: name, value: valueNode.value, line: valueNode.position.line))
        }
        return out
    }
}
