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
        #expect(change == .cut(checkedBytes: size, nowBytes: kept.utf8.count, linesRead: 3, lost: 3))
    }

    /// Cut after it was read whole (the reader's buffer holds a small list at once): every device was sent, and
    /// nothing is said (it said the devices after the cut were never sent).
    @Test func aFileCutAfterItWasReadLostNothing() throws {
        let path = try dir.write("read.txt", Self.tokens.joined(separator: "\n") + "\n")
        let file = try DeviceFile(path: path)
        let source = try file.makeSource()
        #expect(all(source) == Self.tokens)
        try rewrite(path, Self.tokens[0] + "\n")
        #expect(file.changeSinceCheck == nil)
    }

    /// A run that stopped early (an interrupt) did not read its list to the end: no cut is claimed.
    @Test func aRunThatStoppedEarlyClaimsNoCut() throws {
        // Longer than the reader's buffer, so the first token leaves most of it unread.
        let many = (1...3000).map { String(format: "%064x", $0) }
        let path = try dir.write("stopped.txt", many.joined(separator: "\n") + "\n")
        let file = try DeviceFile(path: path)
        let source = try file.makeSource()
        #expect(source.next()?.hex == many[0])
        try rewrite(path, many[0] + "\n")
        #expect(file.changeSinceCheck == nil)
        // Read on to the end after that cut, the devices it lost are counted.
        #expect(all(source).count < many.count - 1)
        guard case .cut(_, _, _, let lost)? = file.changeSinceCheck else {
            Issue.record("no cut: \(String(describing: file.changeSinceCheck))")
            return
        }
        #expect(lost > 0)
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
