import ArgumentParser
import Foundation
import Testing

@testable import APNSCtlCommands

/// `send` has one grammar, the argument parser's. These are the command lines a hand-written fast path once
/// got wrong, run in-process as the binary runs them: an option's value is whatever word follows it, even one
/// that looks like a flag, so the outcome is the parser's usage error (exit 64), never a push built from the
/// words after it.
@Suite struct SendParserParityTests {
    static let token = "ab" + String(repeating: "0", count: 61) + "1"

    /// `send`'s options that take a value, every spelling, as the parser describes them
    /// (`--experimental-dump-help`): a new option is covered without a line here.
    static func valueOptions() throws -> [String] {
        var text = ""
        do { _ = try APNSCtl.parseAsRoot(["send", "--experimental-dump-help"]) } catch {
            text = APNSCtl.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        return arguments.filter { $0["kind"] as? String == "option" }.flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let n = name["name"] as? String, let kind = name["kind"] as? String else { return nil }
                return kind == "long" ? "--" + n : "-" + n
            }
        }
    }

    /// Whether the parser alone accepts `send ARGUMENTS`.
    static func parserAccepts(_ arguments: [String]) -> Bool {
        (try? APNSCtl.parseAsRoot(["send"] + arguments)) != nil
    }

    @Test func aTitleFollowedByADeviceFlagIsAUsageError() {
        let world = TestWorld()
        let status = world.run(["send", "--title", "-d", Self.token, "p.json", "--dry-run"])
        #expect(status == 64, "\(world.stderr.text)")
        #expect(world.stdout.text.isEmpty, "nothing was planned: \(world.stdout.text)")
    }

    /// After every option that takes a value, `-d TOKEN` is that option's missing value (exit 64).
    @Test func aDeviceFlagAfterAnyOptionIsThatOptionsMissingValue() throws {
        let options = try Self.valueOptions()
        #expect(options.contains("--title") && options.contains("-d") && options.contains("--timeout"))
        for option in options {
            let arguments = [option, "-d", Self.token, "p.json", "--dry-run"]
            #expect(!Self.parserAccepts(arguments), "the parser refuses \(arguments)")
            let world = TestWorld()
            let status = world.run(["send"] + arguments)
            #expect(status == 64, "send \(arguments.joined(separator: " ")): exit \(status): \(world.stderr.text)")
        }
    }

    /// A value that starts with `-`: as its own word it is a flag to the parser, so every option reports it
    /// missing (exit 64, with the parser's message); attached with `=` it is the value, and the command judges
    /// it. Whatever the parser decides, the command line run in-process decides the same.
    @Test func aValueStartingWithADashIsDecidedByTheParserForEveryOption() throws {
        for option in try Self.valueOptions() {
            let separate = [option, "-x", "--dry-run"]
            #expect(!Self.parserAccepts(separate), "\(separate)")
            let world = TestWorld()
            #expect(world.run(["send"] + separate) == 64, "\(separate): \(world.stderr.text)")
            #expect(world.stderr.text.hasPrefix("error: "), "\(world.stderr.text)")
            guard option.hasPrefix("--") else { continue }
            let attached = ["\(option)=-x", "--dry-run"]
            let parsed = Self.parserAccepts(attached)
            let other = TestWorld()
            let status = other.run(["send"] + attached)
            if !parsed { #expect(status == 64, "\(attached): the parser refuses it, the run gives \(status)") }
            #expect(!other.stderr.text.contains("Unknown option"), "\(attached): \(other.stderr.text)")
        }
    }
}
