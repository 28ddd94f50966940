import APNSPlatform

extension SettingsInput {
    /// The edge: the world's variables and home, the settings file (read through `SettingsFileReader`, which
    /// refuses a file others can change), and where the mock's `mock.json` is (read by `MockReadyFileReader`
    /// only if the `mock` profile is chosen).
    public static func gather(
        command: SettingCommand, flags: SettingFlags,
        world: SettingsWorld
    ) throws(SettingsProblem) -> SettingsInput {
        let variables = world.variables
        let location = try SettingsLocation.find(
            configFlag: flags.config, variables: variables, configHome: world.configHome)
        let bytes = try SettingsFileReader.read(location)
        // No home directory: no default mock state dir (its mock.json is then missing, exit 66), and `~/` is left
        // as written rather than expanded against a guess.
        // A key pasted into APNSCTL_MOCK_STATE_DIR is refused when the mock profile is read, not by a run that
        // never uses the mock.
        var mockFile = ""
        var mockProblem: SettingsProblem? = nil
        do {
            mockFile =
                try MockProfile.readyFilePath(
                    variables: variables, defaultStateDirectory: world.defaultMockStateDirectory) ?? ""
        } catch { mockProblem = error }
        var input = SettingsInput(
            command: command, flags: flags, variables: variables, home: world.home ?? "~", location: location,
            fileBytes: bytes, mockReadyFile: mockFile)
        input.readMockReadyFile = { [mockFile, mockProblem] () throws(SettingsProblem) in
            if let mockProblem { throw mockProblem }
            return mockFile.isEmpty ? nil : try MockReadyFileReader.read(mockFile)
        }
        return input
    }
}
