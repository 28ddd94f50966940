import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient

/// A `--devices FILE` something else writes while it is sent: the second pass reads only the bytes the check read,
/// and after it the change is told. Lines appended were sent unchecked (bad ones dropped silently), and a file cut
/// short sent the cut fragment of a line as a token.
@Suite struct DeviceFileChangeTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory(prefix: "devices-change") }

    static let tokens = (1...6).map { String(format: "%064x", $0) }

    private func all(_ source: DeviceSource) -> [String] {
        var out: [String] = []
        while let t = source.next() { out.append(t.hex) }
        return out
    }

    /// Opens and checks the list, runs `change` on its path, then reads the second pass.
    private func sent(after change: (String) throws -> Void, skipInvalid: Bool = false) throws -> (
        [String], DeviceFile.Change?
    ) {
        let path = try dir.write("list.txt", Self.tokens.joined(separator: "\n") + "\n")
        let file = try DeviceFile(path: path, skipInvalid: skipInvalid)
        try change(path)
        let source = try file.makeSource()
        return (all(source), file.changeSinceCheck)
    }

    private func rewrite(_ path: String, _ text: String) throws {
        // In place (O_TRUNC), as `>` and most editors' saves do: the descriptor sees the new bytes.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func untouchedIsNoChange() throws {
        let (sent, change) = try sent(after: { _ in })
        #expect(sent == Self.tokens)
        #expect(change == nil)
    }

    @Test func linesAppendedAreNotReadAndSaid() throws {
        let size = Self.tokens.joined(separator: "\n").utf8.count + 1
        let (sent, change) = try sent(after: { path in
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("not-a-token\n\(String(repeating: "ef", count: 32))\n".utf8))
            try handle.close()
        })
        #expect(sent == Self.tokens)
        #expect(change == .grew(checkedBytes: size, nowBytes: size + 12 + 65))
    }

    @Test func aFileCutInsideALineSendsNoFragment() throws {
        // Cut in the middle of the fourth token: three whole lines and 10 characters of the fourth are left.
        let kept = Self.tokens.prefix(3).joined(separator: "\n") + "\n" + Self.tokens[3].prefix(10)
        let size = Self.tokens.joined(separator: "\n").utf8.count + 1
        let (sent, change) = try sent(after: { try rewrite($0, kept) })
        #expect(sent == Array(Self.tokens.prefix(3)))
        #expect(change == .cut(checkedBytes: size, nowBytes: kept.utf8.count))
    }

    @Test func linesRewrittenAreSkippedAndCounted() throws {
        var lines = Self.tokens
        lines[1] = String(repeating: "z", count: 64)
        let (sent, change) = try sent(after: { try rewrite($0, lines.joined(separator: "\n") + "\n") })
        #expect(sent == Self.tokens.enumerated().filter { $0.offset != 1 }.map(\.element))
        #expect(change == .rewritten(lines: 1))
    }

    /// Bad lines `--skip-invalid` skipped at the check are no change when they are skipped again.
    @Test func linesSkippedAtTheCheckAreNoChange() throws {
        let path = try dir.write("skip.txt", Self.tokens[0] + "\nnot-a-token\n" + Self.tokens[1] + "\n")
        let file = try DeviceFile(path: path, skipInvalid: true)
        #expect(all(try file.makeSource()) == Array(Self.tokens.prefix(2)))
        #expect(file.changeSinceCheck == nil)
    }
}
