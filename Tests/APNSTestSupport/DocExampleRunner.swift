import Foundation

/// Runs a page's runnable blocks as one `/bin/sh` script against the built apnsctl and compares what
/// each command printed (stdout and stderr in order) and its exit status with the page.
///
/// The page runs in a temporary working directory of its own with a private `HOME` and XDG dirs,
/// a copy of the repository's `Payloads/`, a private `TMPDIR` (`mktemp -d` leaves nothing behind), `TZ=UTC`,
/// no inherited `APNSCTL_*`, stdin `/dev/null` and the built apnsctl first on `PATH` (when a command names it), so
/// variables and files of one block are there for the next. The page's mock (`apnsctl mock … --port N &`)
/// is started in the background on a free port, waited for (its `mock.json`, at most 20 s) and killed
/// when the page ends; the free port replaces N in every command, and N replaces it in the output. A page
/// may start several (two playing sandbox and production for `--env auto`), each on its own shown port.
public enum DocExampleRunner {
    /// What one page's run found.
    public struct Report: Sendable {
        public let page: String
        public let blocks: Int
        public let commands: Int
        /// One message per failing command: `FILE:LINE`, the command, the first differing line.
        public let failures: [String]
        /// What each command printed (ports put back as the page shows them) and its exit status, in page order:
        /// what a page's blocks should show, before placeholders replace the values that vary.
        public let transcript: [(command: DocExampleCommand, lines: [String], status: Int32)]

        /// The transcript as `$ ` blocks, for a writer updating a page by hand.
        public var transcriptText: String {
            transcript.map { entry in
                (["$ " + entry.command.text] + entry.lines + (entry.status == 0 ? [] : ["(exit \(entry.status))"]))
                    .joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }

    private static let marker = "\u{1E}apnsctl-doc"
    private static let mockNotReady = "\u{1E}apnsctl-doc-mock-not-ready"

    /// Runs `page` (its commands, in order) and reports every mismatch.
    public static func run(_ page: DocExamplePage, timeout: Double = 120) throws -> Report {
        let work = try TemporaryDirectory(prefix: "doc-page")
        let home = work.file("home")
        let run = work.file("run")
        for dir in [home, run, work.file("tmp")] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        // As in a clone of the repository: the sample payloads are there.
        try FileManager.default.copyItem(atPath: Repository.path("Payloads"), toPath: run + "/Payloads")
        // Each mock's shown port (not 0: that one the mock picks) → a free one, the same for the whole page.
        var ports: [(shown: String, free: String)] = []
        for mock in page.commands.filter(\.isMock) {
            guard let shown = Self.port(in: mock.text), shown != "0", !ports.contains(where: { $0.shown == shown })
            else { continue }
            var free = String(try ProxyProcess.freePort())
            while ports.contains(where: { $0.free == free }) { free = String(try ProxyProcess.freePort()) }
            ports.append((shown, free))
        }

        var script = "exec 2>&1 </dev/null\n__apnsctl_doc_mocks=\n"
        script += "trap '[ -n \"$__apnsctl_doc_mocks\" ] && kill -KILL $__apnsctl_doc_mocks 2>/dev/null' EXIT\n"
        for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("APNSCTL_") {
            script += "unset \(name)\n"
        }
        for (index, command) in page.commands.enumerated() {
            var text = command.text
            for port in ports { text = Self.replacingPort(port.shown, with: port.free, in: text) }
            if command.isMock {
                script += Self.mockLines(
                    text, expectedLines: command.expected.count, files: work.path + "/mock-\(index)")
            } else {
                script += text + "\n__apnsctl_doc_s=$?\n"
            }
            script += "printf '\\n\(marker) \(index) %d\\n' \"$__apnsctl_doc_s\"; (exit \"$__apnsctl_doc_s\")\n"
        }
        let scriptPath = try work.write("page.sh", script)

        var environment = [
            "PATH": CommandRunner.searchPath(for: page.commands.map(\.text).joined(separator: "\n")),
            "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
            "XDG_STATE_HOME": home + "/.local/state", "XDG_DATA_HOME": home + "/.local/share",
            "TZ": "UTC", "LC_ALL": "C.UTF-8", "COLUMNS": "100", "TMPDIR": work.path + "/tmp",
        ]
        for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("APNSCTL_") { environment[name] = "" }
        let result = try CommandRunner.run(
            "/bin/sh", [scriptPath], environment: environment, directory: run, timeout: timeout)

        let outputs = Self.split(result.stdout, count: page.commands.count)
        var failures: [String] = []
        var transcript: [(command: DocExampleCommand, lines: [String], status: Int32)] = []
        if result.timedOut { failures.append("\(page.name): the page did not finish within \(Int(timeout)) s") }
        for (index, command) in page.commands.enumerated() {
            let shown = "`" + command.text.replacingOccurrences(of: "\n", with: " ") + "`"
            guard index < outputs.count else {
                failures.append(
                    "\(page.name):\(command.line): \(shown) never finished (an earlier command ended the page)")
                break
            }
            // As a terminal shows it: a carriage return or spaces at the end of a line are not seen (curl -i).
            var lines = outputs[index].0.map { Self.trimmingLineEnd($0) }
            let status = outputs[index].1
            for port in ports { lines = lines.map { Self.replacingPort(port.free, with: port.shown, in: $0) } }
            transcript.append((command, lines, status))
            if command.isMock, lines.contains(where: { $0.hasPrefix(mockNotReady) }) {
                failures.append(
                    "\(page.name):\(command.line): \(shown): the mock did not write mock.json within 20 s"
                        + " (its output: \(lines.filter { !$0.hasPrefix(mockNotReady) }.joined(separator: " | ")))")
                continue
            }
            if let difference = try Self.firstDifference(command, lines, page: page.name) {
                failures.append(
                    "\(page.name):\(difference.line): \(shown)\n  expected: \(difference.expected)\n  actual:   \(difference.actual)"
                )
                continue
            }
            if status != command.exitStatus {
                failures.append(
                    "\(page.name):\(command.line): \(shown)\n  expected: exit \(command.exitStatus)\n  actual:   exit \(status)"
                )
            }
        }
        return Report(
            page: page.name, blocks: page.blockCount, commands: page.commands.count, failures: failures,
            transcript: transcript)
    }

    /// The shell lines that start the page's mock in the background and wait for it: its stdout (the
    /// notification log) and stderr go to files, its stderr is shown once ready, unless the command redirects them.
    /// `files` is a directory outside the page's working directory for those two files.
    private static func mockLines(_ text: String, expectedLines: Int, files: String) -> String {
        let command = String(text.trimmingCharacters(in: .whitespaces).dropLast())
        let stateDir =
            Self.word(after: "--state-dir", in: command) ?? "\"${XDG_STATE_HOME:-$HOME/.local/state}/apnsctl/mock\""
        // The mock writes mock.json, then its ready lines in one write: once the page's count of lines is there,
        // so is all the mock says at start (one more line would be in the same write), and nothing waits longer.
        // A command that redirects the mock's log (stdout) or its stderr itself keeps that redirection; what it
        // leaves to the terminal goes to `files`, and its stderr is shown under the command unless redirected.
        let ownsOutput = command.contains("2>")
        let ownsLog = command.replacingOccurrences(of: "2>", with: "").contains(">")
        let start =
            command + (ownsLog ? "" : " > '\(files)/mock.log'") + (ownsOutput ? "" : " 2> '\(files)/mock.err'") + " &"
        try? FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        if ownsOutput { _ = FileManager.default.createFile(atPath: files + "/mock.err", contents: nil) }
        return """
            \(start)
            __apnsctl_doc_mock=$!
            __apnsctl_doc_mocks="$__apnsctl_doc_mocks $__apnsctl_doc_mock"
            __apnsctl_doc_n=0
            while [ ! -s \(stateDir)/mock.json ] && [ $__apnsctl_doc_n -lt 400 ] && kill -0 $__apnsctl_doc_mock 2>/dev/null; do sleep 0.05; __apnsctl_doc_n=$((__apnsctl_doc_n + 1)); done
            if [ -s \(stateDir)/mock.json ]; then
              __apnsctl_doc_n=0
              while [ "$(wc -l < '\(files)/mock.err')" -lt \(expectedLines) ] && [ $__apnsctl_doc_n -lt 200 ]; do sleep 0.05; __apnsctl_doc_n=$((__apnsctl_doc_n + 1)); done
              cat '\(files)/mock.err'; __apnsctl_doc_s=0
            else
              cat '\(files)/mock.err'; printf '\(mockNotReady)\\n'; __apnsctl_doc_s=1
            fi

            """
    }

    /// The output between markers, per command: its lines (the marker's own blank line dropped) and status.
    private static func split(_ output: String, count: Int) -> [([String], Int32)] {
        var result: [([String], Int32)] = []
        var current: [String] = []
        // Swift reads "\r\n" as one character: split on the byte a terminal moves down at.
        for line in output.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init) {
            if let range = line.range(of: marker + " ") {
                let before = String(line[..<range.lowerBound])
                if !before.isEmpty { current.append(before) }
                // The printf starts with a newline so a last line without one is kept apart: drop that empty line.
                if current.last == "" { current.removeLast() }
                let fields = line[range.upperBound...].split(separator: " ")
                result.append((current, fields.count == 2 ? Int32(fields[1]) ?? -1 : -1))
                current = []
            } else {
                current.append(line)
            }
        }
        return result
    }

    /// `line` without the spaces, tabs and carriage returns at its end.
    static func trimmingLineEnd(_ line: String) -> String {
        var end = line.endIndex
        while end > line.startIndex, [" ", "\t", "\r"].contains(line[line.index(before: end)]) {
            end = line.index(before: end)
        }
        return String(line[..<end])
    }

    private struct Difference {
        let line: Int
        let expected: String
        let actual: String
    }

    private static func firstDifference(_ command: DocExampleCommand, _ actual: [String], page: String) throws
        -> Difference?
    {
        for (i, expected) in command.expected.enumerated() {
            guard i < actual.count else {
                return Difference(line: expected.line, expected: expected.text, actual: "(no more output)")
            }
            let same: Bool
            do { same = try DocPlaceholder.matches(Self.trimmingLineEnd(expected.text), actual[i]) } catch {
                throw TestSupportError("\(page):\(expected.line): \(error)")
            }
            if !same { return Difference(line: expected.line, expected: expected.text, actual: actual[i]) }
        }
        if actual.count > command.expected.count {
            let line = (command.expected.last?.line ?? command.line) + 1
            return Difference(line: line, expected: "(no more output)", actual: actual[command.expected.count])
        }
        return nil
    }

    /// The number after `--port` in a mock command.
    static func port(in command: String) -> String? {
        Self.word(after: "--port", in: command).flatMap { Int($0) != nil ? $0 : nil }
    }

    /// The shell word after `flag` (`--flag VALUE` or `--flag=VALUE`), as written.
    static func word(after flag: String, in command: String) -> String? {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        for (i, w) in words.enumerated() {
            if w == flag, i + 1 < words.count { return words[i + 1] }
            if w.hasPrefix(flag + "=") { return String(w.dropFirst(flag.count + 1)) }
        }
        return nil
    }

    /// `text` with the port `from` (after `:` or `--port `, not followed by a digit) replaced by `to`.
    static func replacingPort(_ from: String, with to: String, in text: String) -> String {
        guard let regex = try? NSRegularExpression(pattern: "(:|--port[ =])" + from + "(?![0-9])") else { return text }
        return regex.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1" + to)
    }
}
