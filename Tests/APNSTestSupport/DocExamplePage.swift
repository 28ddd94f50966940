import Foundation

/// One `$ ` command of a runnable block, with the output a terminal shows for it (stdout and stderr in
/// order) and its exit status (`(exit N)` as the last output line; 0 when absent).
public struct DocExampleCommand: Sendable {
    /// 1-based line of the `$ ` prompt in the page.
    public let line: Int
    /// The command as `sh` reads it: continuation lines (after a trailing `\`) joined with newlines.
    public let text: String
    /// Expected output lines with their 1-based page lines.
    public let expected: [(line: Int, text: String)]
    public let exitStatus: Int32
    /// `apnsctl mock … &`: the page's mock, started by the runner in the background.
    public var isMock: Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        return t.hasPrefix("apnsctl mock") && t.hasSuffix("&") && !t.hasSuffix("&&")
    }
}

/// A page of README.md or docs/*.md split into its runnable blocks: fences opened with ```` ```console ````.
/// Every other fence (```` ```text ````, ```` ```yaml ````, …) is an illustration and is not run.
public struct DocExamplePage: Sendable {
    /// The marker that opens a runnable block.
    public static let runnableFence = "```console"

    /// The page's name as failures print it (e.g. `docs/mock.md`).
    public let name: String
    /// The commands of every runnable block, in page order.
    public let commands: [DocExampleCommand]
    /// How many runnable blocks the page has.
    public let blockCount: Int

    public init(name: String, text: String) throws {
        self.name = name
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var commands: [DocExampleCommand] = []
        var blocks = 0
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.trimmingCharacters(in: .whitespaces) == Self.runnableFence else {
                index += 1
                continue
            }
            blocks += 1
            let open = index + 1
            index += 1
            var body: [(Int, String)] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append((index + 1, lines[index]))
                index += 1
            }
            guard index < lines.count else {
                throw TestSupportError("\(name):\(open): runnable block never closed with ```")
            }
            index += 1
            commands += try Self.parseBlock(body, page: name, openLine: open)
        }
        self.commands = commands
        blockCount = blocks
    }

    private static func parseBlock(_ body: [(Int, String)], page: String, openLine: Int) throws -> [DocExampleCommand] {
        guard let first = body.first, first.1.hasPrefix("$ ") else {
            throw TestSupportError("\(page):\(openLine): a runnable block starts with a `$ ` command")
        }
        var result: [DocExampleCommand] = []
        var i = 0
        while i < body.count {
            let (commandLine, head) = body[i]
            var text = String(head.dropFirst(2))
            i += 1
            while text.hasSuffix("\\"), i < body.count {
                text += "\n" + body[i].1
                i += 1
            }
            // A here-document (`cat > file <<'EOF'`) is part of the command, up to its delimiter line.
            if let delimiter = Self.hereDocumentDelimiter(in: text) {
                var closed = false
                while i < body.count, !closed {
                    text += "\n" + body[i].1
                    closed = body[i].1 == delimiter
                    i += 1
                }
                guard closed else {
                    throw TestSupportError("\(page):\(commandLine): here-document never ended with a line \(delimiter)")
                }
            }
            var output: [(line: Int, text: String)] = []
            while i < body.count, !body[i].1.hasPrefix("$ ") {
                output.append((line: body[i].0, text: body[i].1))
                i += 1
            }
            var status: Int32 = 0
            if let last = output.last, last.text.hasPrefix("(exit "), last.text.hasSuffix(")"),
                let n = Int32(last.text.dropFirst(6).dropLast())
            {
                status = n
                output.removeLast()
            }
            result.append(DocExampleCommand(line: commandLine, text: text, expected: output, exitStatus: status))
        }
        return result
    }

    /// The delimiter of the here-document a command opens (`<<EOF`, `<<'EOF'`, `<<"EOF"`), if any.
    static func hereDocumentDelimiter(in command: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: #"<<[ ]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1"#),
            let match = regex.firstMatch(in: command, range: NSRange(command.startIndex..., in: command)),
            let range = Range(match.range(at: 2), in: command)
        else { return nil }
        return String(command[range])
    }
}
