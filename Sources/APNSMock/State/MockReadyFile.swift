import APNSCore
import APNSPlatform

/// `mock.json`: what scripts wait for. Written atomically (temporary file, then rename) once the listener
/// accepts connections, and removed when the mock stops or, by the next mock holding the state dir's lock,
/// before it starts, so a stale file from an earlier run is never mistaken for a live mock.
public enum MockReadyFile {
    static let readyName = MockReadyFields.fileName

    /// The JSON of CLI.md: endpoint, manage_endpoint, ca_file, cert, auth_key, key_id, team_id, bundle_id, pid, and the
    /// environment the mock plays, so the `mock` profiles send and probe that one.
    public static func contents(state: MockState, endpoint: String, environment: APNSEnvironment, pid: Int32)
        -> [UInt8]
    {
        typealias Field = MockReadyFields.Field
        var w = JSONWriter()
        w.beginObject()
        w.field(Field.endpoint.rawValue, endpoint)
        // Channel management is served on the same port (CLI.md).
        w.field(Field.manageEndpoint.rawValue, endpoint)
        w.field(Field.caFile.rawValue, state.caFile)
        w.field(Field.cert.rawValue, state.clientFile)
        w.field(Field.authKey.rawValue, state.authKeyFile)
        w.field(Field.keyID.rawValue, state.keyID)
        w.field(Field.teamID.rawValue, state.teamID)
        w.field(Field.bundleID.rawValue, MockState.bundleID)
        w.field(Field.environment.rawValue, environment.rawValue)
        w.field(Field.pid.rawValue, Int(pid))
        w.endObject()
        return w.bytes + [0x0A]
    }

    /// Writes `mock.json` for a mock listening at `endpoint` and playing `environment`.
    public static func write(state: MockState, endpoint: String, environment: APNSEnvironment)
        throws(MockStateError)
    {
        // overwrite: a temporary file renamed over the old one, so a reader never sees half a file.
        do {
            try state.storage.write(
                contents(state: state, endpoint: endpoint, environment: environment, pid: Environment.processID),
                to: readyName,
                mode: 0o644, overwrite: true)
        } catch {
            throw MockStateError(error)
        }
    }

    /// Removes `mock.json` if this process wrote it (another mock may be using the same state dir).
    public static func remove(state: MockState) {
        if recordedPID(state: state) == Environment.processID { state.storage.remove(readyName) }
    }

    /// Removes a `mock.json` left by a mock that was killed, so scripts never wait on a dead one. Call it only
    /// while holding the state dir's lock: then no live mock can own the file.
    public static func removeLeftover(state: MockState) {
        state.storage.remove(readyName)
    }

    /// The `pid` in the current `mock.json`, if it has one.
    static func recordedPID(state: MockState) -> Int32? {
        guard let bytes = try? state.storage.read(readyName), let value = try? JSONReader.parse(bytes),
            let pid = value[MockReadyFields.Field.pid.rawValue]?.number?.intValue, pid > 0, pid <= Int(Int32.max)
        else { return nil }
        return Int32(pid)
    }

    /// `https://127.0.0.1:2197`; IPv6 literals get brackets. A wildcard address (`0.0.0.0`, `::`) is shown as
    /// loopback, which the server certificate covers.
    public static func endpoint(host: String, port: Int) -> String {
        let local = host == "0.0.0.0" ? "127.0.0.1" : (host == "::" ? "::1" : host)
        let shown = local.contains(":") ? "[\(local)]" : local
        return "https://\(shown):\(port)"
    }
}
