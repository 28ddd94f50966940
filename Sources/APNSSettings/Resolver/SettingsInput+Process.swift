import APNSPlatform

extension SettingsInput {
    /// The edge: the world's variables and home, the settings file (read through `SettingsFileReader`, which
    /// refuses a file others can write), and the mock's `mock.json` if it exists.
    public static func gather(command: SettingCommand, flags: SettingFlags,
                              world: SettingsWorld) throws(SettingsProblem) -> SettingsInput {
        let variables = world.variables
        let location = SettingsLocation.find(configFlag: flags.config, variables: variables, configHome: world.configHome)
        let bytes = try SettingsFileReader.read(location)
        // No home directory: no default mock state dir (its mock.json is then missing, exit 66), and `~/` is left
        // as written rather than expanded against a guess.
        let mockFile = MockProfile.readyFilePath(variables: variables, defaultStateDirectory: world.defaultMockStateDirectory) ?? ""
        return SettingsInput(command: command, flags: flags, variables: variables, home: world.home ?? "~", location: location,
                             fileBytes: bytes, mockReadyFile: mockFile,
                             mockJSON: mockFile.isEmpty ? nil : try? FileSystem.read(mockFile, limit: 1 << 16))
    }
}
