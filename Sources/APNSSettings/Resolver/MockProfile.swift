import APNSCore
import APNSPlatform

/// The built-in profiles (unless the file defines one of that name), read from the running mock's `mock.json`:
/// `mock` sets `endpoint`, `ca-file`, `cert`, `topic` and `env` (the one the mock plays), so
/// `apnsctl send -p mock -d TOKEN --alert hi` works;
/// `mock-token` is the same with token auth (the mock's `.p8`, key id and team id instead of its certificate),
/// for Live Activities, widgets and `jwt`, which a certificate without those topics cannot do.
public enum MockProfile {
    public static let name = "mock"
    public static let tokenName = "mock-token"
    /// Both built-in profiles, in the order `config list` shows them.
    public static let names = [name, tokenName]

    /// The settings `mock.json` gives profile `profile` (`mock` or `mock-token`), by setting name. No `mock.json`
    /// is exit 66 saying to start the mock; no `path` (no home for the default state dir) says why, from `variables`.
    public static func values(
        json: [UInt8]?, path: String, profile: String = name, variables: [String: String] = [:]
    ) throws(SettingsProblem) -> [(String, String)] {
        guard let json else {
            if path.isEmpty {
                throw .missing(
                    "-p \(profile): no home directory for the mock's default state dir "
                        + "(\(Environment.HomeAbsence(variables: variables).reason(xdg: "XDG_STATE_HOME"))); "
                        + "set APNSCTL_MOCK_STATE_DIR to the --state-dir apnsctl mock was started with")
            }
            throw .missing(
                "-p \(profile): no \(path); start apnsctl mock first (it writes mock.json when it is ready), or set APNSCTL_MOCK_STATE_DIR to its --state-dir"
            )
        }
        guard let value = try? JSONReader.parse(json) else {
            throw .missing("-p \(profile): \(path) is not the JSON apnsctl mock writes; restart apnsctl mock")
        }
        typealias Field = MockReadyFields.Field
        let credentials: [(String, Field)] =
            profile == tokenName
            ? [
                (Setting.of(.authKey).name, .authKey), (Setting.of(.keyID).name, .keyID),
                (Setting.of(.teamID).name, .teamID),
            ]
            : [(Setting.of(.cert).name, .cert)]
        var out: [(String, String)] = []
        for (setting, field) in [(Setting.of(.endpoint).name, Field.endpoint), (Setting.of(.caFile).name, .caFile)]
            + credentials
            + [(Setting.of(.topic).name, .bundleID)]
        {
            guard let text = value[field.rawValue]?.string, !text.isEmpty else {
                throw .missing("-p \(profile): \(path) has no \(field.rawValue); restart apnsctl mock")
            }
            out.append((setting, text))
        }
        // The environment the mock plays (a mock of an earlier version does not say, and then none is set).
        if let environment = value[Field.environment.rawValue]?.string, !environment.isEmpty {
            out.append((Setting.of(.env).name, environment))
        }
        return out
    }

    /// How to have the mock play `environment`: the same state dir keeps its CA, certificate and key, so `-p mock`
    /// needs nothing else.
    public static func playAdvice(_ environment: APNSEnvironment) -> String {
        "stop the mock (apnsctl mock stop) and start it again with apnsctl mock --env \(environment.rawValue) and the flags you gave it"
    }

    /// Where `mock.json` is: `APNSCTL_MOCK_STATE_DIR`, else the mock's default state dir (given by the caller,
    /// `SettingsWorld.defaultMockStateDirectory`), as `apnsctl mock` itself chooses.
    public static func readyFilePath(variables: [String: String], defaultStateDirectory: String?)
        throws(SettingsProblem) -> String?
    {
        try stateDirectory(variables: variables, defaultStateDirectory: defaultStateDirectory).map {
            $0 + "/" + MockReadyFields.fileName
        }
    }

    /// The mock's state dir without `--state-dir`: `APNSCTL_MOCK_STATE_DIR` (empty counts as unset), else the
    /// default. `apnsctl mock` and the `mock` profile both use it, so the two agree.
    public static func stateDirectory(variables: [String: String], defaultStateDirectory: String?)
        throws(SettingsProblem) -> String?
    {
        try PathVariable.value("APNSCTL_MOCK_STATE_DIR", in: variables, naming: "the mock's state dir")
            ?? defaultStateDirectory
    }
}
