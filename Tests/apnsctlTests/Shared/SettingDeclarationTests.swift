import ArgumentParser
import Foundation
import Testing

@testable import APNSCtlCommands
@testable import APNSSettings

/// Each setting is declared once, as a `SettingKey`; everything else follows from it or is checked here. For
/// every setting and every command that takes it: the command defines the option (named from the key; a
/// flag for a boolean, an option taking a value otherwise), the catalog has its row, its `APNSCTL_*` variable
/// is read, the value given on the command line reaches the resolver through a property of the same name, and
/// the resolved value reads as the key's type. A setting declared in one place only fails the check (the
/// test-only key below).
@Suite struct SettingDeclarationTests {
    /// The settings commands and the command lines that reach each (with their required arguments).
    static let commands: [(SettingCommand, [[String]])] = [
        (.send, [["send"]]),
        (
            .channel,
            [["channel", "create"], ["channel", "list"], ["channel", "get", "id"], ["channel", "delete", "id"]]
        ),
        (.doctor, [["doctor"]]),
        (.jwt, [["jwt"]]),
    ]

    /// A value each kind of setting accepts; nil for a boolean (a bare flag).
    static func sample(_ kind: SettingKind) -> String? {
        switch kind {
        case .boolean: return nil
        case .word, .identifier: return "ABCDE12345"
        case .text: return "example.com"
        case .path, .credential: return "/nonexistent/file.pem"
        case .secret: return "not-a-secret"
        case .environment: return "production"
        case .endpoints: return "https://127.0.0.1:2197"
        case .port: return "2197"
        case .proxy: return "http://127.0.0.1:3128"
        case .concurrency: return "4"
        case .seconds: return "2.5"
        case .pushType: return "background"
        case .priority: return "5"
        case .expiration: return "1h"
        case .sizeLimit: return "4k"
        case .outputFormat: return "json"
        case .color: return "never"
        case .storage: return "most-recent"
        case .duration: return "30d"
        case .count: return "7"
        }
    }

    /// The long options of `apnsctl PATH` as the parser describes them (`--experimental-dump-help`): name →
    /// whether it takes a value. Hidden ones are left out (`doctor` keeps the shared `--concurrency` hidden).
    static func options(_ path: [String]) throws -> [String: Bool] {
        var text = ""
        do { _ = try APNSCtl.parseAsRoot(path.filter { $0 != "id" } + ["--experimental-dump-help"]) } catch {
            text = APNSCtl.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(path)")
        let command = try #require(root["command"] as? [String: Any])
        var out: [String: Bool] = [:]
        for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false
        {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                if let n = name["name"] as? String { out[n] = argument["kind"] as? String == "option" }
            }
        }
        return out
    }

    /// The settings of `command` resolved from `flags` and `variables` alone (no file, no profile).
    static func resolve(
        _ command: SettingCommand, flags: SettingFlags = SettingFlags(),
        variables: [String: String] = [:]
    ) throws -> ResolvedSettings {
        try SettingsResolver.resolve(
            SettingsInput(
                command: command, flags: flags, variables: variables, home: "/nonexistent",
                location: SettingsLocation(path: "/nonexistent/config.toml", origin: .defaultValue),
                mockReadyFile: "/nonexistent/mock.json"))
    }

    /// Each settings command's command lines with their long options, described once: a dump of a command's help
    /// takes most of a second in a debug build, and every check reads the same.
    static let described = Task {
        try commands.map { command, paths in (command, try paths.map { ($0, try options($0)) }) }
    }

    /// Every way `keys` and the commands disagree, one line each; empty when they agree.
    static func mismatches(_ keys: [AnySettingKey]) async throws -> [String] {
        var problems: [String] = []
        for (command, described) in try await Self.described.value {
            for key in keys where key.setting.commands.contains(command) {
                let setting = key.setting
                let value = sample(setting.kind)
                // The first command line of the family that has it (`storage` is `channel create`'s only).
                guard let (path, options) = described.first(where: { $0.1[setting.name] != nil }),
                    let takesValue = options[setting.name]
                else {
                    problems.append("\(command) has no option --\(setting.name)")
                    continue
                }
                let shown = path.joined(separator: " ")
                if takesValue != (value != nil) {
                    problems.append(
                        "\(shown) --\(setting.name): a boolean setting is a bare flag, any other takes a value")
                    continue
                }
                if SettingCatalog.setting(setting.name) != setting
                    || !SettingCatalog.settings(for: command).contains(setting)
                {
                    problems.append("--\(setting.name) has no catalog row for \(command)")
                }
                let variable = try resolve(command, variables: [setting.variable: value ?? "true"]).value(of: setting)
                if variable?.origin != .variable(setting.variable) {
                    problems.append("\(setting.variable) does not set \(setting.name) for \(command)")
                }
                let arguments = path + ["--\(setting.name)"] + (value.map { [$0] } ?? [])
                let parsed: ParsableCommand
                do { parsed = try APNSCtl.parseAsRoot(arguments) } catch {
                    problems.append("\(arguments.joined(separator: " ")): \(APNSCtl.fullMessage(for: error))")
                    continue
                }
                let flags = SettingFlags.commandLine(of: parsed, for: command)
                guard flags.given(setting) != nil else {
                    problems.append(
                        "\(shown) --\(setting.name) reaches no setting: no property named \(setting.propertyName) holds it"
                    )
                    continue
                }
                guard let resolved = try resolve(command, flags: flags).value(of: setting),
                    resolved.origin == .flag(setting.flag)
                else {
                    problems.append("\(shown) --\(setting.name) given, but the resolver does not take it from the flag")
                    continue
                }
                if !key.reads(resolved.value) {
                    problems.append(
                        "\(setting.name)'s resolved value \(resolved.value) does not read as its key's type")
                }
            }
        }
        return problems
    }

    /// `mismatches(SettingCatalog.keys)`, worked out once for the two tests that check the catalog (a parse per
    /// setting and command line, the slowest part of both). Each key is checked on its own, so the mismatches of
    /// the catalog and one more key are the catalog's and that key's.
    static let catalogMismatches = Task { try await mismatches(SettingCatalog.keys) }

    @Test func everySettingAgreesWithItsOptionRowVariableAndAccessor() async throws {
        let problems = try await Self.catalogMismatches.value
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A setting declared as a key only (no option, no catalog row): the check names it.
    @Test func aSettingDeclaredInOnePlaceOnlyFailsTheCheck() async throws {
        let extra = SettingKey<Bool>("test-only-extra", .boolean, [.send])
        let problems = try await Self.catalogMismatches.value + Self.mismatches([AnySettingKey(extra)])
        #expect(problems == ["send has no option --test-only-extra"], "\(problems)")
        // A key whose type does not match its kind reads nothing.
        let mistyped = SettingKey<Int>("timeout", .seconds, [.send])
        #expect(!mistyped.reads(.seconds(2.5)))
        #expect(SettingKey<Double>.timeout.reads(.seconds(2.5)))
    }

    /// Every long option of every settings command is a setting of that command or an input of one run.
    @Test func everyOptionIsASettingOrAPerRunInput() async throws {
        for (command, described) in try await Self.described.value {
            for (path, options) in described {
                for name in options.keys where name != "help" && name != "version" {
                    let known =
                        SettingCatalog.setting(name)?.commands.contains(command) == true
                        || SettingCatalog.perRunInputs.contains(name) || name == "devices"
                        // How `jwt --decode` prints its report goes with --decode, an input of one run; a
                        // profile's output = "json" is for the commands that send.
                        || (command == .jwt && name == "output")
                    #expect(
                        known,
                        "\(path.joined(separator: " ")) --\(name) is neither a setting of \(command) nor a per-run input"
                    )
                }
            }
        }
    }
}
