import APNSTestSupport
import Testing

/// Every command's help at 80 columns (CLI.md: written as paragraphs and wrapped by the parser).
/// swift-argument-parser takes the width from the COLUMNS variable before asking the terminal, so the
/// test sets COLUMNS=80 on a plain run.
@Suite struct HelpLayoutTests {
    static let commands: [[String]] = [
        [], ["send"], ["validate"], ["inspect"], ["convert"], ["jwt"], ["mock"], ["mock", "stop"], ["doctor"],
        ["channel"], ["channel", "create"], ["channel", "list"], ["channel", "get"], ["channel", "delete"],
        ["config"], ["config", "path"], ["config", "list"], ["config", "show"], ["config", "init"],
        ["config", "set"], ["config", "unset"], ["config", "add-device"], ["config", "remove-device"],
        ["history"], ["history", "list"], ["history", "show"], ["history", "clear"],
    ]

    /// An example is one command a user copies whole: a line the parser wrapped would leave its end on a line
    /// of its own at column 0 (a long one continues with a backslash, indented).
    @Test(arguments: commands)
    func noExampleIsWrapped(command: [String]) throws {
        var inExamples = false
        for line in try Self.help(command) {
            if line.hasPrefix("Example") && line.hasSuffix(":") {
                inExamples = true
            } else if line.isEmpty {
                inExamples = false
            } else if inExamples {
                #expect(line.hasPrefix("  "), "\(command): an example wrapped at 80 columns: \(line)")
            }
        }
    }

    static func help(_ command: [String]) throws -> [String] {
        let r = try InProcess.apnsctl(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(command): \(r.stderr)")
        return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    @Test(arguments: commands)
    func noLineIsLongerThan80Columns(command: [String]) throws {
        for line in try Self.help(command) {
            #expect(line.count <= 80, "\(command): \(line.count) columns: \(line)")
        }
    }

    /// A hard line break inside a paragraph shows as a line the wrapper would have filled further: the next
    /// line's first word fits after it. Paragraph lines (column 0) and option descriptions (continuation
    /// lines, indented 20 or more) are checked; examples keep their own lines.
    @Test(arguments: commands)
    func noParagraphIsBrokenByHand(command: [String]) throws {
        let lines = try Self.help(command)
        for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty {
            let (a, b) = (Self.indentation(line), Self.indentation(next))
            let paragraph = a == 0 && b == 0 && !line.hasSuffix(":")
            // A long option label has a line of its own; its description starts on the next line.
            let optionText = b >= 20 && (a >= 20 || line.dropFirst(a).contains("  "))
            guard paragraph || optionText else { continue }
            let word = next.drop { $0 == " " }.prefix { $0 != " " }
            // The parser fills lines to 79 columns.
            #expect(line.count + 1 + word.count > 79, "\(command): \"\(word)\" would fit after: \(line)")
        }
    }

    /// The parser appends "(default: X)" to options with a default value; the text must not say it again.
    @Test(arguments: commands)
    func defaultsAreNotRepeated(command: [String]) throws {
        var block = ""
        func check() {
            if block.contains("(default: ") {
                let said = block.lowercased().components(separatedBy: "default").count - 1
                #expect(said == 1, "\(command): default given twice: \(block)")
            }
            block = ""
        }
        for line in try Self.help(command) {
            if line.isEmpty || (Self.indentation(line) == 2 && line.dropFirst(2).hasPrefix("-"))
                || Self.indentation(line) == 0
            {
                check()
            }
            block += " " + line.trimmingCharacters(in: .whitespaces)
        }
        check()
    }

    /// A flag's value is named one way in every command (`--state-dir <dir>`, `--port <port>`), as the parser names
    /// them in usage lines: mock's own were `<DIR>` beside its usage line's `<dir>`. (Prose may name a part of a
    /// file name, `AuthKey_<KEYID>.p8`.)
    @Test(arguments: commands)
    func valueNamesAreLowercase(command: [String]) throws {
        for line in try Self.help(command) {
            for match in line.matches(of: /(?:^|\s)--?[A-Za-z0-9-]+[ =]<([^>]*)>/) {
                let name = String(match.output.1)
                #expect(name == name.lowercased(), "\(command): <\(name)> in \(line)")
            }
        }
    }

    @Test(arguments: commands)
    func noMarkdownInTerminalHelp(command: [String]) throws {
        for line in try Self.help(command) {
            #expect(!line.contains("`"), "\(command): \(line)")
        }
    }
}
