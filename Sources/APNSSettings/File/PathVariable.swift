import APNSCore

/// A variable that names a file or folder (`APNSCTL_CONFIG`, `APNSCTL_MOCK_STATE_DIR`). Its value is quoted by every
/// message about that path, and the mock makes a folder of that name: a value no message may quote (a key pasted
/// into the wrong variable, CLI.md's 200 characters or a line break) is refused as no path, without being shown.
enum PathVariable {
    /// The value of `name`, nil when unset or empty.
    static func value(_ name: String, in variables: [String: String], naming what: String) throws(SettingsProblem)
        -> String?
    {
        guard let value = variables[name], !value.isEmpty else { return nil }
        guard VariableEcho.mayEcho(value) else {
            let pem = value.contains("-----BEGIN") ? "PEM text, " : ""
            throw .usage(
                "\(name) holds \(pem)\(VariableEcho.description(of: value)) (not shown), not a path: set it to \(what)'s path (at most \(VariableEcho.limit) characters), or unset it"
            )
        }
        return value
    }
}
