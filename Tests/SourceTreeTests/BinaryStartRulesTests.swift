import APNSTestSupport
import Foundation
import Testing

/// Tests start the built binary only where the process itself is the subject, in the files
/// `Tests/BinaryStartingTests.txt` lists with a reason and a number of tests, adding up to at most its ceiling.
/// This reads the test sources for what names the binary directly; `make test` counts the tests that really
/// started it, helpers included (`scripts/check-binary-starts.sh`).
@Suite struct BinaryStartRulesTests {
    /// One line of the list: a file, how many of its tests may start the binary, and why.
    struct Entry: Equatable {
        let tests: Int
        let file: String
        let why: String
    }

    /// The list's ceiling and entries; comments and blank lines skipped, anything else malformed is an error.
    static func parse(_ text: String) throws -> (ceiling: Int, entries: [Entry]) {
        var ceiling: Int? = nil
        var entries: [Entry] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            if words.count == 2 && words[0] == "ceiling", let n = Int(words[1]) {
                ceiling = n
            } else if words.count == 3, let n = Int(words[0]), n > 0, words[1].hasSuffix(".swift") {
                entries.append(Entry(tests: n, file: words[1], why: words[2]))
            } else {
                throw TestSupportError("BinaryStartingTests.txt: not `N File.swift why` nor `ceiling N`: \(line)")
            }
        }
        guard let ceiling else { throw TestSupportError("BinaryStartingTests.txt: no `ceiling N` line") }
        return (ceiling, entries)
    }

    static func list() throws -> (ceiling: Int, entries: [Entry]) {
        try parse(try String(contentsOfFile: Repository.path("Tests/BinaryStartingTests.txt"), encoding: .utf8))
    }

    /// What in a test's code starts the binary: running it by path, through a shell given its path or its
    /// folder in PATH, as a mock process, or through the doc runner.
    static let markers = [
        "CommandRunner.apnsctl(", "CommandRunner.apnsctlPath", "CommandRunner.measuredPath", "asProcess: true",
        "openFileLimit:", "MockProcess(", "CommandRunner.searchPath(", "DocExampleRunner.run(", "BinaryStarts.record(",
    ]

    /// Whether `text` holds tests (`@Test`) whose code names the binary.
    static func startsTheBinary(_ text: String) -> Bool {
        let code = SourceTreeRulesTests.codeLines(text)
        return code.contains { $0.contains("@Test") }
            && code.contains { line in markers.contains { line.contains($0) } }
    }

    /// The test files (not the helpers in APNSTestSupport or this target) that name the binary.
    static func startingFiles() throws -> [String] {
        let root = Repository.path("Tests")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return try files.filter {
            $0.hasSuffix(".swift") && !$0.hasPrefix("APNSTestSupport/") && !$0.hasPrefix("SourceTreeTests/")
        }.sorted().filter {
            startsTheBinary(try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }.map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    @Test func onlyListedFilesStartTheBinary() throws {
        let listed = Set(try Self.list().entries.map(\.file))
        let unlisted = try Self.startingFiles().filter { !listed.contains($0) }
        #expect(
            unlisted.isEmpty,
            "these tests start the built apnsctl: run them in-process (InProcess.apnsctl, InProcessMock), or list the file in Tests/BinaryStartingTests.txt saying why the process is the subject: \(unlisted)"
        )
    }

    @Test func theListStaysUnderItsCeilingAndSaysWhy() throws {
        let (ceiling, entries) = try Self.list()
        let total = entries.reduce(0) { $0 + $1.tests }
        #expect(total <= ceiling, "\(total) tests may start the binary; the ceiling is \(ceiling)")
        #expect(Set(entries.map(\.file)).count == entries.count, "a file is listed twice")
        #expect(entries.allSatisfy { $0.why.count >= 20 }, "each file says why the process is the subject")
    }

    /// The rules on made-up files, so a rule that stopped matching would fail here.
    @Test func theRulesCatchWhatTheyAreAbout() throws {
        #expect(Self.startsTheBinary("@Test func f() throws {\n    let r = try CommandRunner.apnsctl([\"x\"])\n}"))
        #expect(Self.startsTheBinary("@Test func f() throws {\n    let m = try RunningMock(asProcess: true)\n}"))
        #expect(!Self.startsTheBinary("@Test func f() throws {\n    let r = try InProcess.apnsctl([\"x\"])\n}"))
        // A helper without tests, and a comment, are not tests starting it.
        #expect(!Self.startsTheBinary("func helper() throws {\n    try CommandRunner.apnsctl([])\n}"))
        #expect(!Self.startsTheBinary("@Test func f() {}\n// CommandRunner.apnsctl( is not used here\n"))
        let parsed = try Self.parse("# c\nceiling 3\n2 A.swift the reason it needs the process\n")
        #expect(
            parsed.ceiling == 3
                && parsed.entries == [Entry(tests: 2, file: "A.swift", why: "the reason it needs the process")])
        #expect(throws: (any Error).self) { try Self.parse("ceiling 3\nA.swift 2 why\n") }
        #expect(throws: (any Error).self) { try Self.parse("2 A.swift why\n") }
    }
}
