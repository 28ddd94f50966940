import APNSPlatform

extension SettingsInput {
    /// The edge: this process's environment, home and settings file (read through `SettingsFileReader`, which
    /// refuses a file others can write), and the mock's `mock.json` if it exists. `defaultMockStateDirectory`
    /// is `MockState.defaultDirectory` (passed in, so this module does not depend on the mock).
    public static func fromProcess(command: SettingCommand, flags: SettingFlags,
                                   defaultMockStateDirectory: String?) throws(SettingsProblem) -> SettingsInput {
        let variables = Environment.all()
        let location = SettingsLocation.find(configFlag: flags.config, variables: variables, configHome: Environment.configHome)
        let bytes = try SettingsFileReader.read(location)
        // No home directory: no default mock state dir (its mock.json is then missing, exit 66), and `~/` is left
        // as written rather than expanded against a guess.
        let mockFile = MockProfile.readyFilePath(variables: variables, defaultStateDirectory: defaultMockStateDirectory) ?? ""
        return SettingsInput(command: command, flags: flags, variables: variables, home: Environment.home ?? "~", location: location,
                             fileBytes: bytes, mockReadyFile: mockFile,
                             mockJSON: mockFile.isEmpty ? nil : try? FileSystem.read(mockFile, limit: 1 << 16))
    }
}
