import APNSCore
import Testing

@testable import APNSSettings

/// `-d NAME` and `--devices` lines: tokens stay tokens, names resolve with the profile's own table winning.
@Suite struct DeviceNamesTests {
    static func names(profile: String? = "prod-cert") throws -> DeviceNames {
        let file = try SettingsFile.parse(Array(SettingsResolverTests.example.utf8), path: "/c.toml")
        return DeviceNames(file: file, profile: profile.flatMap { file.profile($0) })
    }

    @Test func namesAndTokens() throws {
        let n = try Self.names()
        #expect(
            try n.resolve("my-iphone")
                == DeviceNames.Device(
                    token: try DeviceToken(parsing: "3f2a000000000000000000000000000000000000000000000000000000009c1d"),
                    name: "my-iphone"))
        // The profile's own table wins.
        #expect(try n.resolve("qa-ipad").token.hex.hasPrefix("aaaa"))
        #expect(try Self.names(profile: nil).resolve("qa-ipad").token.hex.hasPrefix("77b0"))
        // Hex is a token, even an odd one: its own problem, not "unknown name".
        #expect(try n.resolve("77B0000000000000000000000000000000000000000000000000000000000A11").name == nil)
        #expect(throws: DeviceNames.Problem.token(.oddLength(count: 3))) { try n.resolve("abc") }
    }

    @Test func unknownNames() throws {
        let n = try Self.names()
        #expect(throws: DeviceNames.Problem.unknownName("my-iphon", known: ["my-iphone", "qa-ipad"])) {
            try n.resolve("my-iphon")
        }
        do {
            _ = try n.resolve("my-iphon")
            Issue.record("resolved")
        } catch {
            #expect(error.suggestion == "my-iphone")
            #expect(error.message == "unknown device name \"my-iphon\"; did you mean \"my-iphone\"?")
            // A --devices line is quoted by its first 8 characters before the reason, which does not repeat it.
            #expect(error.lineMessage == "unknown device name; did you mean \"my-iphone\"?")
        }
        do {
            _ = try n.resolve("laptop")
            Issue.record("resolved")
        } catch {
            #expect(error.message == "unknown device name \"laptop\"; the known names are my-iphone, qa-ipad")
            #expect(error.lineMessage == "unknown device name; the known names are my-iphone, qa-ipad")
        }
        do {
            _ = try DeviceNames().resolve("laptop")
            Issue.record("resolved")
        } catch {
            #expect(error.message.contains("no device names are defined"))
        }
    }

    /// iOS names a device "Ada’s iPhone": a name with a blank and an apostrophe mistyped gets the name's advice,
    /// not "whitespace inside the value, so it is not one token"; a token pasted in groups keeps the token's.
    @Test func aNameWithBlanksMistypedIsAName() throws {
        let file = try SettingsFile.parse(
            Array(
                "[devices]\n\"Ada’s iPhone\" = \"3f2a000000000000000000000000000000000000000000000000000000009c1d\"\n"
                    .utf8), path: "/c.toml")
        let n = DeviceNames(file: file, profile: nil)
        #expect(try n.resolve("Ada’s iPhone").name == "Ada’s iPhone")
        do {
            _ = try n.resolve("Ada’s iPhon")
            Issue.record("resolved")
        } catch {
            #expect(error.message == "unknown device name \"Ada’s iPhon\"; did you mean \"Ada’s iPhone\"?")
        }
        do {
            _ = try n.resolve("Bob's iPad")
            Issue.record("resolved")
        } catch {
            #expect(error.message == "unknown device name \"Bob's iPad\"; the known names are Ada’s iPhone")
        }
        #expect(throws: DeviceNames.Problem.token(.innerWhitespace(parts: 2))) { try n.resolve("3f2a1b0c 9d8e7f6a") }
    }

    @Test func aLongTableIsListedByItsFirstNames() throws {
        let lines = (1...25).map { "phone-\($0) = \"\(String(repeating: "ab", count: 32))\"\n" }.joined()
        let file = try SettingsFile.parse(Array(("[devices]\n" + lines).utf8), path: "/c.toml")
        do {
            _ = try DeviceNames(file: file, profile: nil).resolve("laptop")
            Issue.record("resolved")
        } catch {
            #expect(
                error.message == "unknown device name \"laptop\"; the known names are "
                    + (1...10).map { "phone-\($0)" }.joined(separator: ", ")
                    + ", … (25 in all; apnsctl config list shows them)")
        }
    }

    @Test func badEntriesAreReportedWhenUsed() throws {
        let file = try SettingsFile.parse(Array("[devices]\nbroken = \"xyz\"\nnumber = 5\n".utf8), path: "/c.toml")
        let n = DeviceNames(file: file, profile: nil)
        do {
            _ = try n.resolve("broken")
            Issue.record("resolved")
        } catch {
            #expect(error.message.hasPrefix("device name \"broken\" (/c.toml:2) is not a usable token"))
        }
        #expect(throws: DeviceNames.Problem.self) { try n.resolve("number") }
    }
}
