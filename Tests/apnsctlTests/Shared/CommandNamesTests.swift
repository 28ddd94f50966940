import ArgumentParser
import Foundation
import Testing

@testable import APNSCtlCommands

/// No command has two arguments answering to one name. swift-argument-parser stops a debug build on such a
/// command, but `make test` runs optimised code, where the parser would quietly give the name to one of them.
@Suite struct CommandNamesTests {
    /// `(command path, name)` for every name used twice in one command, from the parser's own description of the
    /// whole command tree (`--experimental-dump-help`, hidden arguments included).
    static func repeatedNames(in command: [String: Any], path: [String]) -> [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let kind = name["kind"] as? String, let text = name["name"] as? String else { continue }
                let spelled =
                    kind == "short" ? "-" + text : kind == "long" ? "--" + text : "-" + text + " (long, one dash)"
                if !seen.insert(spelled).inserted { repeated.append("\(path.joined(separator: " ")): \(spelled)") }
            }
        }
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            repeated += repeatedNames(in: sub, path: path + [sub["commandName"] as? String ?? "?"])
        }
        return repeated
    }

    static func tree() throws -> [String: Any] {
        var text = ""
        do { _ = try APNSCtl.parseAsRoot(["--experimental-dump-help"]) } catch {
            text = APNSCtl.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(root["command"] as? [String: Any])
    }

    @Test func noCommandUsesANameTwice() throws {
        let tree = try Self.tree()
        let commands = (tree["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(commands.contains("send") && commands.contains("config"), "the whole tree: \(commands)")
        #expect(Self.repeatedNames(in: tree, path: ["apnsctl"]) == [])
    }

    /// The check finds a name given twice (a command described by hand, as the dump describes one).
    @Test func aNameGivenTwiceIsFound() {
        let option: (String) -> [String: Any] = { ["names": [["kind": "long", "name": $0]]] }
        let send: [String: Any] = [
            "commandName": "send", "arguments": [option("title"), option("body"), option("title")],
        ]
        let root: [String: Any] = ["arguments": [option("version")], "subcommands": [send]]
        #expect(Self.repeatedNames(in: root, path: ["apnsctl"]) == ["apnsctl send: --title"])
    }
}
