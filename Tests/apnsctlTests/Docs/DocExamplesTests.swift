import APNSTestSupport
import Foundation
import Testing

/// Every runnable block (```` ```console ````) of README.md and docs/*.md is run against the built
/// binary and the page's own `apnsctl mock`, and its output and exit status must be what the page shows.
/// Pages run one at a time (`oneAtATime`): each starts mocks and many short processes, and the rest of the suite runs
/// timing-sensitive tests beside them on a 2-core machine.
@Suite struct DocExamplesTests {
    static let oneAtATime = OneAtATime()

    /// README.md and every docs/*.md, by their repository paths.
    static var pages: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("docs"))) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test(arguments: pages) func theRunnableBlocksMatchTheBinary(page: String) async throws {
        try await offThePool(Self.oneAtATime) {
            let text = try String(contentsOfFile: Repository.path(page), encoding: .utf8)
            let parsed = try DocExamplePage(name: page, text: text)
            let report = try DocExampleRunner.run(parsed)
            // DOCS_TRANSCRIPT_DIR=DIR writes what every command printed to DIR/PAGE.txt, for updating a page by hand.
            if let dir = ProcessInfo.processInfo.environment["DOCS_TRANSCRIPT_DIR"], !dir.isEmpty {
                let file = dir + "/" + page.replacingOccurrences(of: "/", with: "_") + ".txt"
                try (report.transcriptText + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            }
            print("\(page): ran \(report.blocks) runnable blocks (\(report.commands) commands)")
            #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
        }
    }
}

/// The runner itself: each drift the issue names is a failure naming the page and line, never a pass or a skip.
@Suite struct DocExampleRunnerTests {
    static let token = "aaaa000000000000000000000000000000000000000000000000000000000000"
    static let mock = "$ apnsctl mock --port 8443 --state-dir mock --unregistered \(token) &"
    /// What the mock prints on stderr once ready (the page shows it under its command).
    static let mockLines = [
        "apnsctl mock: ready on https://127.0.0.1:8443 (sandbox); created credentials in {{path}}",
        #"apnsctl mock: try: apnsctl send --endpoint https://127.0.0.1:8443 --ca-file {{path}} --cert {{path}} --topic com.example.demo --device a1b2c3d4000000000000000000000000000000000000000000000000e5f6a7b8 '{"aps":{"alert":"Hello from apnsctl mock"}}'"#,
        "apnsctl mock: token auth: --auth-key {{path}} --team-id {{team-id}} instead of --cert",
        "apnsctl mock: profiles: -p mock (its certificate) or -p mock-token (its key, for Live Activities, widgets and jwt); export APNSCTL_MOCK_STATE_DIR={{path}} first",
    ]
    static let send =
        "$ apnsctl send --endpoint https://127.0.0.1:8443 --ca-file mock/ca.pem --cert mock/client.pem --alert Hi -d \(token) -q"
    static let rejected =
        "rejected  410  Unregistered  \(token)  The device token is no longer active for this topic (since {{time}}). Stop sending to this token unless the app registers it again."
    static let json =
        "$ apnsctl send --endpoint https://127.0.0.1:8443 --ca-file mock/ca.pem --cert mock/client.pem --alert Hi -d 3f2a000000000000000000000000000000000000000000000000000000009c1d -o json"
    static let jsonLine =
        #"{"device":"3f2a000000000000000000000000000000000000000000000000000000009c1d","status":200,"apns_id":"{{uuid}}","apns_unique_id":"{{uuid}}","reason":null,"timestamp":null,"environment":"sandbox","endpoint":"https://127.0.0.1:8443","duration_ms":{{ms}}}"#

    /// Runs `lines` as a page named `t.md` (line 1 is a heading, line 2 blank, line 3 the fence).
    static func run(_ lines: [String]) throws -> [String] {
        let text = (["# t", "", "```console"] + lines + ["```", ""]).joined(separator: "\n")
        return try DocExampleRunner.run(DocExamplePage(name: "t.md", text: text), timeout: 60).failures
    }

    /// One page, one mock: what matches passes, and each drift (a shortened token, JSON fields in another
    /// order, an exit status not shown, a placeholder of another kind) is one failure naming its line.
    @Test func eachDriftFailsNamingFileAndLineAndTheRestPasses() async throws {
        try await offThePool {
            let short = Self.rejected.replacingOccurrences(of: Self.token, with: "aaaa…0000")
            let swapped = Self.jsonLine.replacingOccurrences(
                of: #""status":200,"apns_id":"{{uuid}}","#, with: #""apns_id":"{{uuid}}","status":200,"#)
            #expect(swapped != Self.jsonLine)
            let wrongKind = Self.jsonLine.replacingOccurrences(
                of: #""apns_id":"{{uuid}}""#, with: #""apns_id":"{{time}}""#)
            let failures = try Self.run(
                [Self.mock] + Self.mockLines + [
                    // Lines 9 to 17: all match.
                    Self.send, Self.rejected, "(exit 1)",
                    Self.json, Self.jsonLine, "$ echo $?", "0", "$ ID=$(echo x) && echo \"id $ID\" | tr x y", "id y",
                    // Line 19: a shortened token.
                    Self.send, short, "(exit 1)",
                    // Line 22: JSON fields in another order.
                    Self.json, swapped,
                    // Line 23: exit 1 where the page shows none (exit 0).
                    Self.send, Self.rejected,
                    // Line 26: a placeholder of another kind.
                    Self.json, wrongKind,
                ])
            #expect(failures.count == 4, "\(failures)")
            let at = { (line: Int) in failures.first { $0.hasPrefix("t.md:\(line): ") } }
            let shortened = try #require(at(19), "\(failures)")
            #expect(shortened.hasPrefix("t.md:19: `apnsctl send"), "\(shortened)")
            #expect(shortened.contains("expected: rejected  410  Unregistered  aaaa…0000"), "\(shortened)")
            #expect(shortened.contains("actual:   rejected  410  Unregistered  \(Self.token)"), "\(shortened)")
            #expect(at(22) != nil, "\(failures)")
            let exit = try #require(at(23), "\(failures)")
            #expect(exit.contains("expected: exit 0") && exit.contains("actual:   exit 1"), "\(exit)")
            #expect(at(26) != nil, "\(failures)")
        }
    }

    @Test func aWrongExitStatusFails() throws {
        let shownWrong = try Self.run(["$ false", "(exit 2)"])
        #expect(shownWrong.count == 1 && shownWrong[0].hasPrefix("t.md:4: `false`"), "\(shownWrong)")
    }

    @Test func missingAndExtraLinesFail() throws {
        let missing = try Self.run(["$ printf 'a\\nb\\n'", "a"])
        #expect(
            missing.count == 1 && missing[0].hasPrefix("t.md:6: ") && missing[0].contains("actual:   b"), "\(missing)")
        let extra = try Self.run(["$ printf 'a\\n'", "a", "b"])
        #expect(extra.count == 1 && extra[0].hasPrefix("t.md:6: ") && extra[0].contains("(no more output)"), "\(extra)")
    }

    @Test func aPlaceholderOfAnotherKindFails() throws {
        #expect(!(try DocPlaceholder.matches("took {{duration}}", "took 8443")))
        #expect(!(try DocPlaceholder.matches("id {{uuid}}", "id 2026-11-26T02:45:46Z")))
        #expect(try DocPlaceholder.matches("took {{duration}} at {{time}}", "took 1.5 ms at 2026-11-26T02:45:46Z"))
        #expect(throws: (any Error).self) { try Self.run(["$ echo 1", "{{number-of-things}}"]) }
    }

    @Test func aHereDocumentIsPartOfItsCommand() throws {
        let failures = try Self.run([
            "$ cat > f.txt <<'EOF'", "a $HOME", "$ not a command", "EOF", "$ head -1 f.txt", "a $HOME",
            "$ sed -n 2p f.txt | cut -c3-", "not a command",
        ])
        #expect(failures.isEmpty, "\(failures)")
        let wrong = try Self.run(["$ cat > f.txt <<EOF", "b", "EOF", "$ cat f.txt", "c"])
        #expect(wrong.count == 1 && wrong[0].hasPrefix("t.md:8: `cat f.txt`"), "\(wrong)")
        #expect(throws: (any Error).self) { try Self.run(["$ cat <<'EOF'", "never ended"]) }
    }

    @Test func aMockThatNeverStartsIsAFailureNotASkip() async throws {
        try await offThePool {
            let failures = try Self.run([
                "$ apnsctl mock --port 8443 --state-dir mock --no-such-flag &", "$ echo next", Self.rejected,
            ])
            #expect(
                failures.contains { $0.hasPrefix("t.md:4: ") && $0.contains("did not write mock.json within 20 s") },
                "\(failures)")
        }
    }
}

/// The pages' links and repository paths match the tree, and the README stays a front door.
@Suite struct DocPagesTests {
    @Test(arguments: DocExamplesTests.pages) func linksAndPathsExist(page: String) throws {
        let problems = try DocLinkCheck.problems(page: page, root: Repository.root)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aBrokenLinkAMissingAnchorOrAMissingPathFails() throws {
        let dir = try TemporaryDirectory(prefix: "doc-links")
        try FileManager.default.createDirectory(atPath: dir.file("docs"), withIntermediateDirectories: true)
        try dir.write("docs/a.md", "# A page\n\n## Two words\n")
        try dir.write(
            "README.md",
            """
            # R

            [ok](docs/a.md#two-words) [web](https://example.com) [self](#r)
            [gone](docs/b.md)
            [anchor](docs/a.md#three-words)
            `docs/a.md` and `Sources/Nothing.swift`

            """)
        let problems = try DocLinkCheck.problems(page: "README.md", root: dir.path)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("README.md:4: ") && $0.contains("docs/b.md does not exist") })
        #expect(problems.contains { $0.hasPrefix("README.md:5: ") && $0.contains("#three-words") })
        #expect(problems.contains { $0.hasPrefix("README.md:6: ") && $0.contains("Sources/Nothing.swift") })
    }

    @Test func theReadmeIsShortWithInstallFirst() throws {
        let text = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 250, "README.md has \(lines.count) lines; move detail to a docs/ page")
        #expect(lines.first { $0.hasPrefix("## ") } == "## Install")
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.path("docs")).filter {
            $0.hasSuffix(".md")
        }
        for page in docs { #expect(text.contains("](docs/\(page))"), "README.md does not link docs/\(page)") }
    }
}

/// The examples in `--help` are shown to users: the ones that need only the repository's samples run
/// as printed, from the repository root, and say nothing they do not mean (no warning from a sample).
@Suite struct HelpExampleTests {
    @Test func validateHelpSampleExamplesRunClean() throws {
        let help = try InProcess.apnsctl(["validate", "--help"]).stdout
        let examples = help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("apnsctl validate ") && $0.contains("Payloads/") && !$0.contains("|") }
        #expect(examples.count >= 2, "\(help)")
        for example in examples {
            // Run in-process, whose working directory is shared: the sample paths are made absolute (the
            // examples have no quoting, so words are split on spaces as the shell would).
            let words = example.split(separator: " ").dropFirst().map {
                $0.hasPrefix("Payloads/") ? Repository.path(String($0)) : String($0)
            }
            #expect(!example.contains("'") && !example.contains("\"") && !example.contains("*"), "\(example)")
            let r = try InProcess.apnsctl(words, directory: Repository.root)
            #expect(
                r.status == 0 && !r.stdout.contains("warning") && !r.stderr.contains("warning"),
                "\(example): exit \(r.status)\n\(r.stdout)\(r.stderr)")
        }
    }
}

/// `send --help`'s example of the built-in `mock` profile runs as printed (its `TOKEN` a real one) against a
/// running mock: accepted, exit 0, no warning.
@Suite struct HelpMockExampleTests {
    @Test func theMockProfileExampleSendsWithoutAWarning() throws {
        let help = try InProcess.apnsctl(["send", "--help"]).stdout
        let example = try #require(
            help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("apnsctl send -p mock ") }, "\(help)")
        let mock = try InProcessMock()
        defer { mock.stop() }
        let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"
        let arguments = example.split(separator: " ").dropFirst().map { $0 == "TOKEN" ? token : String($0) }
        let home = try TemporaryDirectory(prefix: "help-mock")
        let r = try InProcess.apnsctl(
            arguments,
            environment: [
                "APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path,
                "HOME": home.path, "XDG_CONFIG_HOME": home.file("config"),
            ])
        #expect(
            r.status == 0 && r.stdout.hasPrefix("accepted  200  3f2a…9c1d") && r.stderr.isEmpty,
            "\(example): exit \(r.status)\n\(r.stdout)\(r.stderr)")
    }
}

/// docs/architecture.md's module table is `Package.swift`'s targets: every module built from `Sources/`, in
/// the package's order, with exactly the modules it imports. A module added, removed or given another
/// dependency fails until the page says so.
@Suite struct ArchitecturePageTests {
    static let begin = "<!-- modules: generated from Package.swift; ArchitecturePageTests checks it -->"
    static let end = "<!-- modules:end -->"

    /// The non-test targets of a `Package.swift` text (those with a `path:` under `Tests/` left out), in order,
    /// each with its dependencies (a product by its name).
    static func targets(in package: String) throws -> [(name: String, dependencies: [String])] {
        let target = try NSRegularExpression(
            pattern: #"\.(target|systemLibrary|executableTarget)\(\s*name:\s*"([^"]+)""#)
        let ns = package as NSString
        let matches = target.matches(in: package, range: NSRange(location: 0, length: ns.length))
        var result: [(name: String, dependencies: [String])] = []
        for (i, match) in matches.enumerated() {
            // The declaration runs to the next target (or the end of the targets).
            let from = match.range.location
            let to = i + 1 < matches.count ? matches[i + 1].range.location : ns.length
            let text = ns.substring(with: NSRange(location: from, length: to - from))
            if text.contains("path: \"Tests/") { continue }
            var dependencies: [String] = []
            if let open = text.range(of: "dependencies:"), let list = text[open.upperBound...].range(of: "["),
                let close = text[list.upperBound...].range(of: "]")
            {
                let inside = String(text[list.upperBound..<close.lowerBound])
                let product = try NSRegularExpression(pattern: #"\.product\(\s*name:\s*"([^"]+)"[^)]*\)"#)
                let plain = product.stringByReplacingMatches(
                    in: inside, range: NSRange(inside.startIndex..., in: inside), withTemplate: "\"$1\"")
                let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
                dependencies = quoted.matches(in: plain, range: NSRange(plain.startIndex..., in: plain)).compactMap {
                    Range($0.range(at: 1), in: plain).map { String(plain[$0]) }
                }
            }
            result.append((ns.substring(with: match.range(at: 2)), dependencies))
        }
        return result
    }

    /// Each target with its "imports" cell as the page writes it: the dependencies, or `(none)`, or
    /// `(none: system library)`.
    static func importCells(in package: String) throws -> [(name: String, imports: String)] {
        let systemLibraries = try NSRegularExpression(pattern: #"\.systemLibrary\(\s*name:\s*"([^"]+)""#)
        let system = Set(
            systemLibraries.matches(in: package, range: NSRange(package.startIndex..., in: package)).compactMap {
                Range($0.range(at: 1), in: package).map { String(package[$0]) }
            })
        return try Self.targets(in: package).map { t in
            (
                t.name,
                t.dependencies.isEmpty
                    ? (system.contains(t.name) ? "(none: system library)" : "(none)")
                    : t.dependencies.joined(separator: ", ")
            )
        }
    }

    /// The page's rows between the markers as (module, imports), with their 1-based lines.
    static func rows(in page: String) -> [(line: Int, module: String, imports: String)] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let b = lines.firstIndex(of: begin), let e = lines.firstIndex(of: end), b < e else { return [] }
        return ((b + 1)..<e).compactMap { index in
            let cells = lines[index].split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { return nil }
            return (index + 1, cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[2])
        }
    }

    /// What is wrong with the page's rows against the package's targets, each naming a line.
    static func problems(page: String, package: String, name: String) throws -> [String] {
        let targets = try Self.importCells(in: package)
        let rows = Self.rows(in: page)
        guard !rows.isEmpty else { return ["\(name): no module table between its markers"] }
        var problems: [String] = []
        if rows.map(\.module) != targets.map(\.name) {
            problems.append(
                "\(name):\(rows[0].line): the modules are \(rows.map(\.module)); Package.swift's targets are \(targets.map(\.name))"
            )
        }
        for row in rows {
            guard let want = targets.first(where: { $0.name == row.module })?.imports else { continue }
            if row.imports != want {
                problems.append(
                    "\(name):\(row.line): \(row.module) imports \(want) in Package.swift; the page says \(row.imports)")
            }
        }
        return problems
    }

    @Test func theModuleTableIsPackageSwifts() throws {
        let page = try String(contentsOfFile: Repository.path("docs/architecture.md"), encoding: .utf8)
        let package = try String(contentsOfFile: Repository.path("Package.swift"), encoding: .utf8)
        let targets = try Self.targets(in: package)
        #expect(targets.count >= 10, "\(targets)")
        // Every folder of Sources/ is a target the table must name.
        for module in try FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources")) {
            #expect(targets.contains { $0.name == module }, "Sources/\(module) is not a target of Package.swift")
        }
        let problems = try Self.problems(page: page, package: package, name: "docs/architecture.md")
        let rows = try Self.importCells(in: package).map { "| `\($0.name)` | \($0.imports) | … |" }
        #expect(
            problems.isEmpty,
            "\(problems.joined(separator: "\n"))\nThe rows Package.swift gives:\n\(rows.joined(separator: "\n"))")
    }

    @Test func aNewModuleOrAChangedArrowFails() throws {
        let package = """
            .systemLibrary(name: "CLib", pkgConfig: "lib"),
            .target(name: "Core"),
            .target(name: "Net", dependencies: ["Core", "CLib",
                    .product(name: "ArgumentParser", package: "swift-argument-parser")]),
            .target(name: "Support", dependencies: ["Core"], path: "Tests/Support"),
            .testTarget(name: "CoreTests", dependencies: ["Core"]),
            """
        let table = [
            Self.begin, "| module | imports | what |", "|---|---|---|",
            "| `CLib` | (none: system library) | c |", "| `Core` | (none) | core |",
            "| `Net` | Core, CLib, ArgumentParser | net |", Self.end,
        ].joined(separator: "\n")
        #expect(try Self.problems(page: table, package: package, name: "t.md").isEmpty)
        let added = package + "\n.target(name: \"New\", dependencies: [\"Core\"]),"
        #expect(
            try Self.problems(page: table, package: added, name: "t.md").contains {
                $0.hasPrefix("t.md:4: the modules are")
            })
        let arrow = package.replacingOccurrences(of: "[\"Core\", \"CLib\",", with: "[\"Core\",")
        #expect(
            try Self.problems(page: table, package: arrow, name: "t.md") == [
                "t.md:6: Net imports Core, ArgumentParser in Package.swift; the page says Core, CLib, ArgumentParser"
            ])
    }
}
