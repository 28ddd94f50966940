/// Everything the resolver reads, gathered at the edge: nothing in the resolver touches the environment or
/// the file system, so tables of these test it in-process.
public struct SettingsInput: Sendable {
    public var command: SettingCommand
    public var flags: SettingFlags
    /// The process environment (or a test's).
    public var variables: [String: String]
    /// For `~/` in profile paths.
    public var home: String
    /// The settings file in use (whether or not it exists).
    public var location: SettingsLocation
    /// Its bytes; nil when there is none.
    public var fileBytes: [UInt8]?
    /// Where the built-in `mock` profile reads `mock.json`.
    public var mockReadyFile: String
    /// Reads `mock.json` (nil when it does not exist). Called only when the built-in `mock` profile is chosen,
    /// so a command that does not use it never touches the file; the process's reader is `MockReadyFileReader`,
    /// a test's may hand in bytes.
    public var readMockReadyFile: @Sendable () throws(SettingsProblem) -> [UInt8]?

    public init(
        command: SettingCommand, flags: SettingFlags = SettingFlags(), variables: [String: String] = [:], home: String,
        location: SettingsLocation, fileBytes: [UInt8]? = nil, mockReadyFile: String, mockJSON: [UInt8]? = nil
    ) {
        self.command = command
        self.flags = flags
        self.variables = variables
        self.home = home
        self.location = location
        self.fileBytes = fileBytes
        self.mockReadyFile = mockReadyFile
        readMockReadyFile = { mockJSON }
    }

    /// The settings file as read, checked whole (nil when there is none). A problem that removing one line
    /// mends names the command that removes it, as every command refuses the file until then.
    public func parsedFile() throws(SettingsProblem) -> SettingsFile? {
        guard let fileBytes else { return nil }
        do { return try SettingsFile.parse(fileBytes, path: location.path) } catch {
            throw error.withMendingCommand(for: location, bytes: fileBytes)
        }
    }
}
