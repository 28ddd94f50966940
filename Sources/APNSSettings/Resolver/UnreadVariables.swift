import APNSCore

/// `APNSCTL_*` variables apnsctl does not read, said rather than silently ignored: a variable named after a flag
/// that has none (`APNSCTL_ALERT`; `send` refuses `APNSCTL_DRY_RUN` outright), or a misspelt one
/// (`APNSCTL_TOPC`). Other `APNSCTL_` names, unlike any apnsctl reads, are left alone: they may be another
/// tool's.
public enum UnreadVariables {
    /// Every variable apnsctl reads: the settings' own, and those that are no setting.
    static let known: Set<String> = Set(SettingCatalog.all.map(\.variable)).union([
        "APNSCTL_PROFILE", "APNSCTL_CONFIG", "APNSCTL_MOCK_STATE_DIR", "APNSCTL_PASSPHRASE",
        "APNSCTL_OUT_PASSPHRASE",
    ])

    /// The variables that name a file or folder: a `_FILE` or `_PATH` after one of them is the same slip.
    static let pathVariables: Set<String> = Set(
        SettingCatalog.all.filter { $0.kind == .path || $0.kind == .credential }.map(\.variable)
    ).union(["APNSCTL_CONFIG", "APNSCTL_MOCK_STATE_DIR"])

    /// The variables of a value a Docker-style `_FILE` variable would be read from (APNSCTL_TEAM_ID_FILE): ids and
    /// words, which a secret store holds.
    static let valueVariables: Set<String> = Set(
        SettingCatalog.all.filter { $0.kind == .identifier || $0.kind == .word }.map(\.variable))

    /// Aliases too generic to take for a setting's name in a variable: another tool's `APNSCTL_HOST` is not ours.
    static let genericNames: Set<String> = [
        "host", "url", "server", "type", "ca", "team", "kid", "iss", "bundle", "pem", "p8", "p12", "appid", "keyfile",
    ]

    /// The variable a script set to ask for a dry run (`APNSCTL_DRY_RUN`, or a misspelling of it: `APNSCTL_DRYRUN`,
    /// `APNSCTL_DRY`), when its value does not say no (`0`, `false`, `no`, `off`); nil when none is. No variable
    /// makes a dry run, so a command that changes something refuses to run beside one.
    public static func dryRunVariable(in variables: [String: String]) -> String? {
        variables.keys.sorted().first { name in
            // Any case of the prefix (`apnsctl_dry_run=1`): a script that meant a dry run must not send.
            guard name.uppercased().hasPrefix("APNSCTL_"), let value = variables[name], !value.isEmpty,
                !["0", "false", "no", "off"].contains(value.lowercased())
            else { return false }
            return folded(name).hasPrefix("dry")
        }
    }

    /// A variable's name without the prefix, lower case, without underscores: `APNSCTL_DRY_RUN` is `dryrun`.
    private static func folded(_ name: String) -> String {
        String(name.dropFirst("APNSCTL_".count).lowercased().filter { $0 != "_" })
    }

    /// The warnings for `variables` (set and not empty) on a command whose long flags `commandFlags` gives
    /// (asked only when a variable is not known).
    /// `given`: per-run flags the command line gave, whose variable is no news (`APNSCTL_DRY_RUN` beside `--dry-run`).
    public static func warnings(
        _ variables: [String: String], commandFlags: () -> [String], given: Set<String> = []
    ) -> [String] {
        // A variable apnsctl reads, in another case (`apnsctl_topic`): names are case-sensitive, so it sets nothing.
        let otherCase = variables.compactMap { name, value -> String? in
            guard name.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "a") }) == true, !name.hasPrefix("APNSCTL_"),
                !value.isEmpty, known.contains(name.uppercased())
            else { return nil }
            return "\(name) is not read: variable names are upper case; did you mean \(name.uppercased())?"
        }.sorted()
        // A name in another case that apnsctl does not read either (`apnsctl_topc`): judged as its upper case, said
        // under the name given.
        var typedCase: [String: String] = [:]
        let unread = Set(
            variables.compactMap { name, value -> String? in
                // Every variable of the environment passes here at start-up: only a name starting with an a is
                // put in upper case.
                guard name.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "a") }) == true else { return nil }
                let upper = name.hasPrefix("APNSCTL_") ? name : name.uppercased()
                guard upper.hasPrefix("APNSCTL_"), !value.isEmpty, !known.contains(upper), !given.contains(upper)
                else { return nil }
                if upper != name { typedCase[upper] = name }
                return upper
            })
        guard !unread.isEmpty else { return otherCase }
        let flags = Set(commandFlags())
        // Compared without the prefix they share, so a short name needs a close spelling (HOST is not PORT).
        let prefix = "APNSCTL_".count
        let names = known.sorted().map { String($0.dropFirst(prefix)) }
        return otherCase
            + unread.sorted().compactMap { name in
                let flag = "--" + String(name.dropFirst("APNSCTL_".count).lowercased().map { $0 == "_" ? "-" : $0 })
                if flags.contains(flag) {
                    return
                        "\(name) is not read: \(flag) has no variable (variables set settings only; apnsctl config show lists them); give \(flag) on the command line"
                }
                // The names other tools use for a setting (APNSCTL_ENVIRONMENT, APNSCTL_BUNDLE_ID), as the file's keys; not
                // the generic ones (APNSCTL_HOST, APNSCTL_SERVER may be another tool's).
                let folded = folded(name)
                let variable: (String) -> String = { "APNSCTL_" + $0.uppercased().replacing("-", with: "_") }
                // A password's variable: the passphrase itself is one (APNSCTL_PASSPHRASE), where the settings file takes
                // only its file; a name with _FILE is said below.
                if !name.hasSuffix("_FILE"), !name.hasSuffix("_PATH"),
                    ["password", "passwd"].contains(where: { folded.hasSuffix($0) }) || ["pass", "pw"].contains(folded)
                {
                    let meant = folded.hasPrefix("out") ? "APNSCTL_OUT_PASSPHRASE" : "APNSCTL_PASSPHRASE"
                    return "\(name) is not a variable apnsctl reads; did you mean \(meant)?"
                }
                if !genericNames.contains(folded), let alias = ProfileKeyAdvice.aliases[folded] {
                    return "\(name) is not a variable apnsctl reads; did you mean \(variable(alias))?"
                }
                // The environment named as a switch (APNSCTL_SANDBOX=1, APNSCTL_SANDBOX=false): the value it means.
                if ["sandbox", "production", "development"].contains(folded),
                    let meant = ProfileKeyAdvice.alternative(
                        for: folded,
                        value: ["0", "false", "no", "off"].contains(variables[name]?.lowercased() ?? "")
                            ? .boolean(false) : nil),
                    let value = meant.value
                {
                    return "\(name) is not a variable apnsctl reads; did you mean \(variable(meant.key))=\(value)?"
                }
                // The payload is send's argument, never a setting: a script's APNSCTL_PAYLOAD sent the default alert.
                if ["payload", "body", "json", "payloadfile"].contains(folded) {
                    return "\(name) is not read: the payload has no variable; give it as send's argument (a file, JSON "
                        + "text, or - for standard input)"
                }
                // A dry run has no variable, and send refuses to run beside one that asks for it.
                if folded.hasPrefix("dry") {
                    return
                        "\(name) is not read: --dry-run has no variable (send refuses to run beside this one unless it is 0, false, no or off); give --dry-run on the command line"
                }
                // A path setting's name with _FILE or _PATH after it (APNSCTL_CONFIG_FILE, APNSCTL_CERT_PATH): the name
                // itself; a value's name with it (APNSCTL_TEAM_ID_FILE, Docker's "read it from this file") is no slip of
                // this kind. The passphrase's file has a variable of its own.
                for suffix in ["_FILE", "_PATH"] where name.hasSuffix(suffix) {
                    let stem = String(name.dropLast(suffix.count))
                    if stem == "APNSCTL_PASSPHRASE" {
                        return "\(name) is not a variable apnsctl reads; did you mean APNSCTL_PASSPHRASE_FILE?"
                    }
                    if pathVariables.contains(stem) {
                        return "\(name) is not a variable apnsctl reads; did you mean \(stem)?"
                    }
                    // Docker's convention (APNSCTL_TEAM_ID_FILE: read the value from this file), which apnsctl does not
                    // follow: the variable holds the value.
                    if valueVariables.contains(stem) {
                        return "\(name) is not a variable apnsctl reads: \(stem) holds the value itself, not a file's "
                            + "(\(stem)=\"$(cat FILE)\")"
                    }
                    // Another tool's name for a path setting (APNSCTL_CA_CERT_FILE, APNSCTL_CERTIFICATE_PATH).
                    if let alias = ProfileKeyAdvice.aliases[Self.folded(stem)],
                        pathVariables.contains(variable(alias))
                    {
                        return "\(name) is not a variable apnsctl reads; did you mean \(variable(alias))?"
                    }
                }
                if let near = Suggestion.closest(to: String(name.dropFirst(prefix)), among: names) {
                    return "\(name) is not a variable apnsctl reads; did you mean APNSCTL_\(near)?"
                }
                // Misspelt another tool's name for a setting (APNSCTL_ENVIROMENT), by one letter: the setting that name
                // means (two would take APNSCTL_TOKEN_KEY_ID for a key).
                let aliases = ProfileKeyAdvice.aliases.keys.filter { !genericNames.contains($0) }.sorted()
                if folded.count >= 6,
                    let near = aliases.first(where: {
                        Suggestion.distance(Array(folded.utf8), Array($0.utf8), atMost: 1) != nil
                    }),
                    let alias = ProfileKeyAdvice.aliases[near]
                {
                    return "\(name) is not a variable apnsctl reads; did you mean \(variable(alias))?"
                }
                return nil
            }
            .map { message in
                guard let (upper, typed) = typedCase.first(where: { message.hasPrefix($0.key + " ") }) else {
                    return message
                }
                return typed + message.dropFirst(upper.count)
            }
    }
}
