import APNSClient
import APNSCore
import APNSPlatform

/// Resolves one command's settings from the command line, `APNSCTL_*` variables, the chosen profile and the
/// defaults (CLI.md, "Settings"). Pure: `SettingsInput` in, `ResolvedSettings` out, nothing read from the
/// process. The order for each setting is flag, then variable (empty counts as unset), then profile (or the
/// built-in `mock`), then default; the credentials travel as one unit.
public enum SettingsResolver {
    /// One place a value can come from, highest first.
    struct Layer {
        let origin: (Setting) -> SettingOrigin
        let raw: (Setting) -> RawSetting?
        /// A value already checked by `SettingParser` (a flag the argument parser converted).
        var checked: (Setting) -> SettingValue? = { _ in nil }

        func has(_ setting: Setting) -> Bool { checked(setting) != nil || raw(setting) != nil }
    }

    /// A mock plays one environment: an `--env` (or `APNSCTL_ENV`) naming another while the mock's endpoint
    /// serves it would label the mock's answers with an environment it does not play, and doctor would report
    /// that environment good without reaching it. `auto` has its own message (it needs two servers).
    static func checkMockEnvironment(
        _ values: [String: Sourced<SettingValue>], mock: [(String, String)], command: SettingCommand
    ) throws(SettingsProblem) {
        let envName = Setting.of(.env).name
        let endpointName = Setting.of(.endpoint).name
        guard let played = mock.first(where: { $0.0 == envName }).flatMap({ APNSEnvironment(userValue: $0.1) }),
            let endpoint = values[endpointName], let env = values[envName], case .environment(let choice) = env.value
        else { return }
        // The mock's endpoint, whether the mock profile gave it or it was given again (`-p mock --endpoint URL`, its
        // own URL copied from the ready line): the same server, which plays one environment.
        let profile: String
        let file: String
        if case .mock(let p, let f) = endpoint.origin {
            (profile, file) = (p, f)
        } else if case .endpoints(_, let given) = endpoint.value,
            let url = mock.first(where: { $0.0 == endpointName })?.1,
            given.map(Self.withoutSlash) == [Self.withoutSlash(url)],
            let origin = values.values.lazy.compactMap({ v -> (String, String)? in
                if case .mock(let p, let f) = v.origin { return (p, f) }
                return nil
            }).first
        {
            (profile, file) = origin
        } else {
            return
        }
        let (given, leave): (String, String)
        switch env.origin {
        case .flag(let f): (given, leave) = ("\(f) \(choice.name)", "leave \(f) out")
        case .variable(let v): (given, leave) = ("\(v)=\(choice.name)", "unset \(v)")
        default: return
        }
        let mockOf = "the mock of -p \(profile) (\(file)) plays \(played.rawValue)"
        switch choice {
        case .one(let e) where e != played:
            throw .usage(
                "\(given), but \(mockOf); \(leave), or \(MockProfile.playAdvice(e))"
            )
        // doctor's `auto` (a profile's or a variable's, shared with send) is both environments with token auth: one
        // mock cannot be both, and the other would be reported good without being reached.
        case .both,
            .auto where command == .doctor:
            throw .usage(
                "\(given), but \(mockOf) only (a mock plays one environment); \(leave) to check \(played.rawValue)"
            )
        default: return
        }
    }

    /// A URL without its trailing slash, for comparing endpoints as given.
    private static func withoutSlash(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    public static func resolve(_ input: SettingsInput) throws(SettingsProblem) -> ResolvedSettings {
        let file = try input.parsedFile()
        let (profileName, profile, mock) = try chooseProfile(input, file: file)
        let mockName = profileName?.value ?? MockProfile.name
        let paths = SettingParser.Paths(
            home: input.home, baseDirectory: input.location.directory,
            noHome: Environment.isHome(input.home)
                ? nil : Environment.HomeAbsence(variables: input.variables).homeReason)

        var layers: [Layer] = []
        layers.append(
            Layer(
                origin: { .flag($0.flag) },
                raw: { s in
                    guard case .text(let values)? = input.flags.given(s) else { return nil }
                    // A repeatable flag's values are joined for the one parser.
                    return s.isRepeatable
                        ? .toml(.array(values.map { TOMLNode(.string($0), at: TOMLPosition(line: 0, column: 0)) }))
                        : .argument(values.last ?? "")
                },
                checked: { s in
                    guard case .value(let value)? = input.flags.given(s) else { return nil }
                    return value
                }))
        layers.append(
            Layer(
                origin: { .variable($0.variable) },
                raw: { s in
                    guard let v = input.variables[s.variable], !v.isEmpty else { return nil }
                    return .argument(v)
                }))
        if let profile, let file {
            layers.append(
                Layer(
                    origin: { s in
                        .profile(
                            name: profile.name, file: file.path,
                            line: profile.node(s.name)?.position.line ?? profile.line)
                    },
                    raw: { s in profile.node(s.name).map { .toml($0.value) } }))
        } else if let mock {
            layers.append(
                Layer(
                    origin: { _ in .mock(profile: mockName, file: input.mockReadyFile) },
                    raw: { s in mock.first { $0.0 == s.name }.map { .argument($0.1) } }))
        }

        func parse(_ setting: Setting, in layer: Layer) throws(SettingsProblem) -> Sourced<SettingValue>? {
            let origin = layer.origin(setting)
            if let value = layer.checked(setting) { return Sourced(value, from: origin) }
            guard let raw = layer.raw(setting) else { return nil }
            // Flags' endpoints arrive as an array; their messages name the flag as given.
            return Sourced(
                try SettingParser.parse(raw, for: setting, command: input.command, origin: origin, paths: paths),
                from: origin)
        }

        var values: [String: Sourced<SettingValue>] = [:]
        let settings = SettingCatalog.settings(for: input.command)
        let unit = Set(SettingCatalog.credentialUnit)
        let passphraseUnit = Set(SettingCatalog.passphraseUnit)
        let keyIDSetting = Setting.of(.keyID)

        // Credentials: the first layer naming cert, key or auth-key supplies all four.
        var strandedKeyID: Sourced<SettingValue>? = nil
        var ignoredKeyID: SettingOrigin? = nil
        var ignoredCertificate: SettingOrigin? = nil
        var ignoredKey: SettingOrigin? = nil
        let credentialSettings = settings.filter { unit.contains($0) }
        let takesKeyID = credentialSettings.contains(keyIDSetting)
        if let index = layers.firstIndex(where: { layer in
            credentialSettings.contains { $0 != keyIDSetting && layer.has($0) }
        }) {
            for s in credentialSettings { if let v = try parse(s, in: layers[index]) { values[s.name] = v } }
            // A certificate or key below the credentials' layer is not read either (`-p dev --key k.pem`, `-p dev
            // --cert c.pem`): named when the one given is then refused for want of the other.
            let (certificate, key) = (Setting.of(.cert), Setting.of(.key))
            if credentialSettings.contains(certificate), credentialSettings.contains(key) {
                let below = layers[(index + 1)...]
                if values[certificate.name] == nil {
                    ignoredCertificate = below.first { $0.has(certificate) }?.origin(certificate)
                } else if values[key.name] == nil {
                    ignoredKey = below.first { $0.has(key) }?.origin(key)
                }
            }
            // A key id above the credentials' layer is stranded: it belongs to a key that layer does not give.
            if takesKeyID {
                for layer in layers[..<index] {
                    if let v = try parse(keyIDSetting, in: layer) {
                        strandedKeyID = v
                        break
                    }
                }
                // One below it is not read (the key's layer has none): said if the key id is then missing.
                if values[keyIDSetting.name] == nil {
                    ignoredKeyID = layers[(index + 1)...].first { $0.has(keyIDSetting) }?.origin(keyIDSetting)
                }
            }
        } else if takesKeyID {
            for layer in layers {
                if let v = try parse(keyIDSetting, in: layer) {
                    values[keyIDSetting.name] = v
                    break
                }
            }
        }

        // The passphrase: the first layer naming either setting supplies it.
        let passphraseSettings = settings.filter { passphraseUnit.contains($0) }
        if let layer = layers.first(where: { l in passphraseSettings.contains { l.has($0) } }) {
            var found: [(Setting, Sourced<SettingValue>)] = []
            for s in passphraseSettings { if let v = try parse(s, in: layer) { found.append((s, v)) } }
            if found.count > 1 {
                throw .usage(
                    "\(found.map { $0.1.origin.description }.joined(separator: " and ")) both given; pass only one")
            }
            for (s, v) in found { values[s.name] = v }
        }

        // Everything else: the first layer that has it.
        for s in settings where !unit.contains(s) && !passphraseUnit.contains(s) {
            for layer in layers {
                if let v = try parse(s, in: layer) {
                    values[s.name] = v
                    break
                }
            }
        }

        if let mock {
            // The environment the mock plays describes the mock's server: with another endpoint it is not said.
            let env = Setting.of(.env).name
            if case .mock? = values[env]?.origin {
                if case .mock? = values[Setting.of(.endpoint).name]?.origin {} else { values[env] = nil }
            }
            try checkMockEnvironment(values, mock: mock, command: input.command)
        }

        // Defaults. curl's proxy variables are part of the default, so a profile's proxy wins over them.
        let proxy = Setting.of(.proxy)
        let noProxy = Setting.of(.noproxy)
        if settings.contains(proxy), values[proxy.name] == nil,
            let name = ProxySelection.proxyVariables.first(where: { input.variables[$0] != nil }),
            let url = input.variables[name]
        {
            values[proxy.name] = Sourced(.proxy(url), from: .variable(name))
        }
        // An empty no_proxy (CI images export one) is unset, as curl reads it: it does not hide NO_PROXY.
        if settings.contains(noProxy), values[noProxy.name] == nil,
            let name = ProxySelection.noProxyVariables.first(where: { input.variables[$0]?.isEmpty == false }),
            let list = input.variables[name]
        {
            values[noProxy.name] = Sourced(.text(list), from: .variable(name))
        }
        for s in settings where values[s.name] == nil {
            if let value = s.defaultValue { values[s.name] = Sourced(value, from: .defaultValue) }
        }

        var resolved = ResolvedSettings(
            command: input.command, location: input.location, file: file, profile: profileName,
            values: values, devices: DeviceNames(file: file, profile: profile), strandedKeyID: strandedKeyID)
        resolved.ignoredKeyID = ignoredKeyID
        resolved.ignoredCertificate = ignoredCertificate
        resolved.ignoredKey = ignoredKey
        resolved.emptyCredentialVariables = [Setting.of(.cert), Setting.of(.authKey)].map(\.variable).filter {
            input.variables[$0]?.isEmpty == true
        }
        return resolved
    }

    /// `-p`/`--profile`, else `APNSCTL_PROFILE`, else `default-profile`; the file's own profile of that name,
    /// else the built-in `mock`; anything else is 64 with a "did you mean".
    static func chooseProfile(_ input: SettingsInput, file: SettingsFile?)
        throws(SettingsProblem) -> (Sourced<String>?, SettingsFile.Profile?, [(String, String)]?)
    {
        let chosen: Sourced<String>
        if let p = input.flags.profile {
            // `-p "$PROFILE"` with the variable unset: no name, not a profile called "".
            if p.trimmingBlanks().isEmpty {
                throw .usage(
                    "\(input.flags.profileLabel): empty name; give a profile's name, or leave -p out for the default")
            }
            chosen = Sourced(p, from: .flag("--profile"))
        } else if let p = SettingsWorld.profileVariable(in: input.variables) {
            chosen = Sourced(p, from: .variable("APNSCTL_PROFILE"))
        } else if let d = file?.defaultProfile, let file {
            chosen = Sourced(d.name, from: .profile(name: d.name, file: file.path, line: d.line))
        } else {
            return (nil, nil, nil)
        }
        if let profile = file?.profile(chosen.value) { return (chosen, profile, nil) }
        if MockProfile.names.contains(chosen.value) {
            return (
                chosen, nil,
                try MockProfile.values(
                    json: input.readMockReadyFile(), path: input.mockReadyFile, profile: chosen.value,
                    variables: input.variables)
            )
        }
        let label: String
        switch chosen.origin {
        case .flag: label = "\(input.flags.profileLabel) \(chosen.value.escapingControls())"
        case .variable(let v):
            label =
                VariableEcho.mayEcho(chosen.value)
                ? "\(v)=\(chosen.value.escapingControls())" : "\(v) \(VariableEcho.shown(chosen.value))"
        case .profile(_, let f, let line):
            label = "\(f):\(line): default-profile = \"\(chosen.value.escapingControls())\""
        default: label = chosen.value
        }
        let builtIn = MockProfile.names.filter { n in file?.profile(n) == nil }
        let names = (file?.profiles.map(\.name) ?? []) + builtIn
        guard let file else {
            let near =
                Suggestion.closest(to: chosen.value, among: names).map { "did you mean \(PrintableText.quoted($0))? " }
                ?? ""
            throw .usage(
                "\(label): unknown profile; \(near)there is no settings file (\(input.location.path)), so the only profiles are the built-in mock and mock-token"
            )
        }
        if let near = Suggestion.closest(to: chosen.value, among: names) {
            throw .usage("\(label): unknown profile; did you mean \(PrintableText.quoted(near))?")
        }
        throw .usage("\(label): unknown profile; the profiles in \(file.path) are \(names.joined(separator: ", "))")
    }
}
