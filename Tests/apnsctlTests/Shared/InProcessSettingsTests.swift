import APNSMock
import APNSSettings
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// The commands in-process: `send`'s options parsed by its own parser type and resolved
/// against an injected world (variables and home), so precedence, origins and error messages are checked
/// without spawning the binary or touching this process's environment. The end-to-end tests in
/// `SettingsSendTests` run the same rules through the built binary.
@Suite struct InProcessSettingsTests {
    static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

    /// A private home with `xdg/apnsctl/config.toml` holding a `dev` profile.
    final class World: @unchecked Sendable {
        let root: TemporaryDirectory
        var world: SettingsWorld
        var configFile: String { root.path + "/xdg/apnsctl/config.toml" }

        init(config: String) throws {
            root = try TemporaryDirectory(prefix: "in-process-world")
            try FileManager.default.createDirectory(
                atPath: root.path + "/xdg/apnsctl", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root.path + "/home", withIntermediateDirectories: true)
            _ = try root.write("xdg/apnsctl/config.toml", config, mode: 0o600)
            world = SettingsWorld(
                variables: ["XDG_CONFIG_HOME": root.path + "/xdg", "XDG_STATE_HOME": root.path + "/state"],
                home: root.path + "/home")
        }
    }

    static let config = """
        default-profile = "dev"

        [profiles.dev]
        auth-key = "~/AuthKey_ABCDE12345.p8"
        team-id = "TEAMID1234"
        topic = "com.example.app"
        priority = 5

        [devices]
        my-iphone = "\(token)"

        """

    private func send(_ arguments: [String]) throws -> APNSCtl.Send {
        try APNSCtl.Send.parse(arguments)
    }

    @Test func theDefaultProfileOfTheInjectedWorldFillsWhatNoFlagGives() throws {
        let w = try World(config: Self.config)
        let settings = try send(["--alert", "hi", "-d", "my-iphone"]).resolveSettings(
            in: TestWorld(settings: w.world).world)
        #expect(settings[.topic]?.value == "com.example.app")
        #expect(settings[.topic]?.origin == .profile(name: "dev", file: w.configFile, line: 6))
        #expect(settings[.teamID]?.value == "TEAMID1234")
        // `~/` in a profile path is the injected home, not this process's.
        #expect(settings[.authKey].map { "\($0.value)" }?.contains(w.root.path + "/home/AuthKey_ABCDE12345.p8") == true)
    }

    @Test func aFlagOutranksAVariableWhichOutranksTheProfile() throws {
        let w = try World(config: Self.config)
        w.world.variables["APNSCTL_TOPIC"] = "com.example.variable"
        let fromVariable = try send(["--alert", "hi", "-d", Self.token]).resolveSettings(
            in: TestWorld(settings: w.world).world)
        #expect(fromVariable[.topic]?.value == "com.example.variable")
        #expect(fromVariable[.topic]?.origin == .variable("APNSCTL_TOPIC"))
        let fromFlag = try send(["--alert", "hi", "-d", Self.token, "--topic", "com.example.flag"]).resolveSettings(
            in: TestWorld(settings: w.world).world)
        #expect(fromFlag[.topic]?.value == "com.example.flag")
        #expect(fromFlag[.topic]?.origin == .flag("--topic"))
        // An empty variable counts as unset: the profile's value again.
        w.world.variables["APNSCTL_TOPIC"] = ""
        let emptyVariable = try send(["--alert", "hi", "-d", Self.token]).resolveSettings(
            in: TestWorld(settings: w.world).world)
        #expect(emptyVariable[.topic]?.origin == .profile(name: "dev", file: w.configFile, line: 6))
    }

    @Test func anUnknownProfileIsAUsageErrorNamingIt() throws {
        let w = try World(config: Self.config)
        let command = try send(["-p", "staging", "--alert", "hi", "-d", Self.token])
        do throws(CLIError) {
            _ = try command.resolveSettings(in: TestWorld(settings: w.world).world)
            Issue.record("an unknown profile was accepted")
        } catch {
            #expect(error.exitCode == 64)
            guard case .usage(let message) = error else {
                Issue.record("not a usage error: \(error)")
                return
            }
            #expect(message.contains("staging"))
            #expect(message.contains(w.configFile))
        }
    }

    @Test func withoutAHomeThereIsNoDefaultFileAndNoGuess() throws {
        let world = SettingsWorld(variables: [:], home: nil)
        #expect(world.configHome == nil)
        #expect(world.defaultMockStateDirectory == nil)
        // No profile to fall back on: the credential advice, as a new user without a settings file gets it.
        let bare = try send(["--alert", "hi", "-d", Self.token, "--topic", "com.example.app"])
        do throws(CLIError) {
            _ = try bare.resolveSettings(in: TestWorld(settings: world).world)
            Issue.record("resolved without any credential")
        } catch {
            guard case .usage(let message) = error else {
                Issue.record("not a usage error: \(error)")
                return
            }
            #expect(message.hasPrefix("no credential; pass --cert FILE"))
        }
        let flags = try send([
            "--alert", "hi", "-d", Self.token, "--topic", "com.example.app",
            "--auth-key", "/keys/AuthKey_ABCDE12345.p8", "--team-id", "TEAMID1234",
        ])
        let settings = try flags.resolveSettings(in: TestWorld(settings: world).world)
        #expect(settings[.topic]?.origin == .flag("--topic"))
        #expect(settings[.teamID]?.origin == .flag("--team-id"))
    }

    /// `-p mock` reads `mock.json` where `apnsctl mock` writes it: both take the state dir from the world's one
    /// definition (`$XDG_STATE_HOME/apnsctl/mock`, else `~/.local/state/apnsctl/mock`).
    @Test func theWorldsMockStateDirectoryFollowsXDGStateHome() {
        #expect(
            SettingsWorld(variables: ["XDG_STATE_HOME": "/s"], home: "/h").defaultMockStateDirectory
                == "/s/apnsctl/mock")
        #expect(
            SettingsWorld(variables: ["XDG_STATE_HOME": "relative"], home: "/h").defaultMockStateDirectory
                == "/h/.local/state/apnsctl/mock")
        #expect(SettingsWorld(variables: [:], home: nil).defaultMockStateDirectory == nil)
    }
}
