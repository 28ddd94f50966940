import APNSSettings
import APNSTestSupport
import Foundation
import Testing

/// The settings table against the command definitions, in both directions, read from the argument parser's
/// own description of each command (`--experimental-dump-help`): a flag added to send, channel or jwt that is
/// neither a setting (with its APNSCTL_ variable and profile key) nor a per-run input fails here.
@Suite struct SettingCatalogTests {
    /// The long flags of `apnsctl <path>`, as the parser defines them.
    static func flags(_ path: [String]) throws -> Set<String> {
        let r = try InProcess.apnsctl(path + ["--experimental-dump-help"])
        #expect(r.status == 0, "\(path): \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        var out: Set<String> = []
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let n = name["name"] as? String, n != "help", n != "version" { out.insert(n) }
            }
        }
        return out
    }

    static let families: [(SettingCommand, [[String]])] = [
        (.send, [["send"]]),
        (.channel, [["channel", "create"], ["channel", "list"], ["channel", "get"], ["channel", "delete"]]),
        (.jwt, [["jwt"]]),
    ]

    @Test func everyFlagIsASettingOrAPerRunInput() throws {
        for (command, paths) in Self.families {
            var union: Set<String> = []
            for path in paths {
                let flags = try Self.flags(path)
                union.formUnion(flags)
                for flag in flags {
                    let known = SettingCatalog.setting(flag)?.commands.contains(command) == true
                        || SettingCatalog.perRunInputs.contains(flag) || flag == "devices"
                    #expect(known, "\(path.joined(separator: " ")) --\(flag) is neither a setting of \(command) in SettingCatalog nor a per-run input")
                }
            }
            for setting in SettingCatalog.settings(for: command) {
                #expect(union.contains(setting.name), "SettingCatalog gives \(command) --\(setting.name), which no \(command) command defines")
            }
        }
    }
}
