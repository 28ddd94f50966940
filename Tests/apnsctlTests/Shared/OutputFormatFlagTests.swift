import APNSTestSupport
import Testing

@testable import APNSCtlCommands

/// `-o` is one type with one parser in every command that has it: a bad value gets the same message (naming
/// the flag and the two formats) and exit 64 everywhere, and any case of a good one is taken.
@Suite struct OutputFormatFlagTests {
    static let commands: [[String]] = [
        ["send", "-d", String(repeating: "a", count: 64)],
        ["doctor"],
        ["channel", "list"],
        ["validate", "x.json"],
        ["inspect", "x.pem"],
        ["history", "list"],
        ["history", "show", "last"],
        ["config", "path"],
        ["config", "show"],
        ["config", "list"],
        ["jwt", "--decode", "a.b.c"],
    ]

    @Test(arguments: commands)
    func aBadFormatIsTheSameUsageError(_ command: [String]) {
        let world = TestWorld()
        #expect(world.run(command + ["-o", "yaml"]) == 64)
        #expect(world.stdout.text.isEmpty)
        #expect(
            world.stderr.text.hasPrefix("error: --output yaml: unknown output format; use text or json\n"),
            "\(world.stderr.text)")
    }

    @Test func anyCaseOfAFormatIsTaken() throws {
        let home = try TemporaryDirectory(prefix: "output-format")
        let world = TestWorld(home: home.path)
        #expect(world.run(["config", "path", "-o", "JSON"]) == 0, "\(world.stderr.text)")
        #expect(world.stdout.text.hasPrefix("{\"path\":"), "\(world.stdout.text)")
    }
}
