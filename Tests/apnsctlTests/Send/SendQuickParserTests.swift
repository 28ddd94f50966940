import ArgumentParser
@testable import APNSCtlCommands
import Foundation
import Testing

/// `SendQuickParser` fills `send` without the argument parser's reflection (issue 18); these checks keep it the
/// parser's twin: the same names as the parser's own description of `send` (`--experimental-dump-help`), for
/// every option the same `Send` as the parser makes, and nil (so the parser judges) for every form it does
/// not take. A flag added to `send` without its line in `SendQuickParser.arguments` fails here.
@Suite struct SendQuickParserTests {
    /// What the parser makes of `arguments` as `send`'s (it is parsed as the root of its own tree).
    static func parserResult(_ arguments: [String]) throws -> String {
        String(describing: try APNSCtl.Send.parseAsRoot(arguments))
    }

    static func quickResult(_ arguments: [String]) -> String? {
        SendQuickParser.parse(arguments).map { String(describing: $0) }
    }

    /// `send`'s arguments as the parser describes them: names, and whether each is a flag, an option or the
    /// positional payload, and repeatable.
    struct Described: Hashable {
        let names: [String]
        let kind: String
        let repeating: Bool
    }

    static func described() throws -> [Described] {
        var text = ""
        do {
            _ = try APNSCtl.parseAsRoot(["send", "--experimental-dump-help"])
        } catch {
            text = APNSCtl.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        return arguments.compactMap { argument in
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let n = name["name"] as? String, let kind = name["kind"] as? String else { return nil }
                return kind == "long" ? "--" + n : "-" + n
            }
            // The parser's own --help and --version are not `send`'s options.
            if names.contains("--help") || names.contains("--version") { return nil }
            return Described(names: names.sorted(), kind: argument["kind"] as? String ?? "",
                             repeating: argument["isRepeating"] as? Bool ?? false)
        }
    }

    @Test func theNamesAreThoseTheParserDescribes() throws {
        let parser = Set(try Self.described())
        let quick = Set(SendQuickParser.arguments.map { argument in
            Described(names: argument.names.sorted(),
                      kind: argument.names.isEmpty ? "positional" : (argument.kind == .flag ? "flag" : "option"),
                      repeating: argument.kind == .repeating)
        })
        #expect(parser.subtracting(quick).isEmpty, "send has arguments SendQuickParser does not know")
        #expect(quick.subtracting(parser).isEmpty, "SendQuickParser knows arguments send does not have")
    }

    /// A value each option takes (the parser converts it, and the resolver judges it later).
    static func sample(for names: [String]) -> String {
        switch names.last {
        case "--port", "--concurrency": return "7"
        case "--timeout": return "2.5"
        case "--color": return "never"
        default: return "some-value"
        }
    }

    @Test func everyArgumentGivesWhatTheParserGives() throws {
        for argument in SendQuickParser.arguments where !argument.names.isEmpty {
            for name in argument.names {
                let value = Self.sample(for: argument.names)
                var forms: [[String]] = argument.kind == .flag
                    ? [[name]]
                    : [[name, value]] + (name.hasPrefix("--") ? [["\(name)=\(value)"]] : [])
                if argument.kind == .repeating { forms.append([name, "one", name, "two"]) }
                for form in forms {
                    let arguments = ["alert.json"] + form
                    let quick = try #require(Self.quickResult(arguments), "quick parser declined \(arguments)")
                    #expect(quick == (try Self.parserResult(arguments)), "\(arguments)")
                    #expect(!quick.contains("*definition*"), "\(arguments) left a property unset")
                    // The description shows the value, so a value set on the wrong property would differ.
                    let last = form.last.map { $0.hasPrefix("-") ? String($0.split(separator: "=").last ?? "") : $0 } ?? ""
                    if argument.kind != .flag { #expect(quick.contains(last), "\(quick)") }
                }
            }
        }
    }

    @Test func nothingGivenIsWhatTheParserLeaves() throws {
        let quick = try #require(Self.quickResult([]))
        #expect(quick == (try Self.parserResult([])))
        #expect(!quick.contains("*definition*"))
    }

    @Test func typicalCommandLinesAreTakenWhole() throws {
        let lines: [[String]] = [
            ["alert.json", "--auth-key", "AuthKey_ABCDE12345.p8", "--team-id", "TEAMID1234", "--topic", "com.example.app",
             "--env", "production"],
            ["-p", "prod-cert", "--alert", "hi"],
            ["Payloads/alert.json", "-c", "push.p12", "--env", "prod", "-o", "json", "-v", "--timeout", "10"],
            ["-", "--cert", "client.pem", "--endpoint", "https://127.0.0.1:2197", "--ca-file", "ca.pem", "--dry-run"],
            ["{\"aps\":{\"content-available\":1}}", "-c", "push.pem", "--endpoint=sandbox=https://a", "--endpoint",
             "production=https://b", "--port", "2197", "--color", "always", "-q"],
            ["--live-activity", "update", "--content-state", "@state.json", "--stale-date", "15m", "-p", "prod-token"],
        ]
        for arguments in lines {
            let quick = try #require(Self.quickResult(arguments), "quick parser declined \(arguments)")
            #expect(quick == (try Self.parserResult(arguments)), "\(arguments)")
        }
    }

    /// Whatever the quick parser does not take goes to the parser, which then accepts it or says why not.
    @Test func otherFormsAreLeftToTheParser() {
        let declined: [[String]] = [
            ["--help"], ["-h"], ["--version"], ["--generate-completion-script", "bash"], ["--experimental-dump-help"],
            ["a.json", "b.json"],                     // a second payload
            ["--", "a.json"],                          // the terminator
            ["-qv"], ["-ojson"], ["-o=json"],          // joined short forms
            ["--topic"],                               // no value
            ["--topic", "--alert", "x"],               // a value that looks like a flag
            ["--topic", ""], ["--topic="],             // empty values
            ["--topic", "a", "--topic", "b"],          // a single option twice
            ["--verbose", "--verbose"], ["--verbose=true"],
            ["--port", "http"], ["--timeout", "soon"], ["--color", "sometimes"],  // values that do not convert
            ["--tpoic", "x"], ["-x"],                  // unknown names
            ["--priority", "-5"],
        ]
        for arguments in declined {
            #expect(Self.quickResult(arguments) == nil, "\(arguments)")
        }
    }
}
