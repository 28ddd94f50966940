/// `mock.json`, the file `apnsctl mock` writes in its state dir once it accepts connections: its name and its
/// fields (CLI.md), which the mock writes and the `-p mock` profiles read.
public enum MockReadyFields {
    /// The file's name in the state dir.
    public static let fileName = "mock.json"

    public enum Field: String, Sendable, CaseIterable {
        case endpoint
        /// Channel management, served on the same port.
        case manageEndpoint = "manage_endpoint"
        case caFile = "ca_file"
        case cert
        case authKey = "auth_key"
        case keyID = "key_id"
        case teamID = "team_id"
        case bundleID = "bundle_id"
        /// The environment the mock plays (absent from an earlier version's file).
        case environment
        case pid
    }
}
