import APNSCore

/// A variable that names a file or folder (`APNSCTL_CONFIG`, `APNSCTL_MOCK_STATE_DIR`). Its value is quoted by every
/// message about that path, and the mock makes a folder of that name: a key pasted into the wrong variable (PEM
/// text, a line break, a key's base64 body) is refused as no path, without being shown.
enum PathVariable {
    /// The value of `name`, nil when unset or empty.
    static func value(_ name: String, in variables: [String: String], naming what: String) throws(SettingsProblem)
        -> String?
    {
        guard let value = variables[name], !value.isEmpty else { return nil }
        // PEM text, a line break, or a key's base64 body: a key pasted in. A path that is merely long is a path.
        let pasted =
            value.contains("-----BEGIN") || VariableEcho.isSecretText(value)
            || value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
        guard !pasted else {
            let pem = value.contains("-----BEGIN") ? "PEM text, " : ""
            throw .usage(
                "\(name) holds \(pem)\(VariableEcho.description(of: value)) (not shown), not a path: set it to \(what)'s path, or unset it"
            )
        }
        return value
    }
}
