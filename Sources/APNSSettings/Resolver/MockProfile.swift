import APNSCore

/// The built-in profile `mock` (unless the file defines one): `endpoint`, `ca-file`, `cert` and `topic` from
/// the running mock's `mock.json`, so `apnsctl send -p mock -d TOKEN --alert hi` works.
public enum MockProfile {
    public static let name = "mock"

    /// The settings `mock.json` gives, by setting name. No `mock.json` is exit 66 saying to start the mock.
    public static func values(json: [UInt8]?, path: String) throws(SettingsProblem) -> [(String, String)] {
        guard let json else {
            throw .missing(
                "-p mock: no \(path); start apnsctl mock first (it writes mock.json when it is ready), or set APNSCTL_MOCK_STATE_DIR to its --state-dir"
            )
        }
        guard let value = try? JSONReader.parse(json) else {
            throw .missing("-p mock: \(path) is not the JSON apnsctl mock writes; restart apnsctl mock")
        }
        var out: [(String, String)] = []
        for (setting, field) in [
            (Setting.of(.endpoint).name, "endpoint"), (Setting.of(.caFile).name, "ca_file"),
            (Setting.of(.cert).name, "cert"), (Setting.of(.topic).name, "bundle_id"),
        ] {
            guard let text = value[field]?.string, !text.isEmpty else {
                throw .missing("-p mock: \(path) has no \(field); restart apnsctl mock")
            }
            out.append((setting, text))
        }
        return out
    }

    /// Where `mock.json` is: `APNSCTL_MOCK_STATE_DIR`, else the mock's default state dir (given by the caller,
    /// `SettingsWorld.defaultMockStateDirectory`), as `apnsctl mock` itself chooses.
    public static func readyFilePath(variables: [String: String], defaultStateDirectory: String?) -> String? {
        stateDirectory(variables: variables, defaultStateDirectory: defaultStateDirectory).map { $0 + "/mock.json" }
    }

    /// The mock's state dir without `--state-dir`: `APNSCTL_MOCK_STATE_DIR` (empty counts as unset), else the
    /// default. `apnsctl mock` and the `mock` profile both use it, so the two agree.
    public static func stateDirectory(variables: [String: String], defaultStateDirectory: String?) -> String? {
        variables["APNSCTL_MOCK_STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultStateDirectory
    }
}
