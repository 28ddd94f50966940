import APNSCore
import APNSTestSupport
import Testing
@testable import APNSClient
import APNSPlatform

/// `--devices FILE`: streaming, comments, and precise errors.
@Suite struct DeviceFileTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory(prefix: "devices") }

    private func all(_ source: DeviceSource) -> [String] {
        var out: [String] = []
        while let t = source.next() { out.append(t.hex) }
        return out
    }

    @Test func commentsBlankLinesAndCRLFAreSkipped() throws {
        let a = String(repeating: "ab", count: 32)
        let b = String(repeating: "CD", count: 32)
        let path = try dir.write("t.txt", "# tokens\n\n  \(a)  \r\n\t\n<\(b.prefix(8)) \(b.dropFirst(8))>\n# end")
        let file = try DeviceFile(path: path)
        #expect(file.count == 2)
        #expect(all(try file.makeSource()) == [a, b.lowercased()])
        #expect(all(try file.makeSource()).count == 2)  // a second pass reads again
    }

    @Test func badTokenNamesTheLine() throws {
        let path = try dir.write("t.txt", "\(String(repeating: "ab", count: 32))\n# ok\nnot-a-token\n")
        #expect {
            _ = try DeviceFile(path: path)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .token(_, let line, _, _) = p else { return false }
            return line == 3 && p.message.contains("t.txt:3") && p.message.contains("hex")
        }
    }

    @Test func shortTokensAreCounted() throws {
        let path = try dir.write("t.txt", "abcd\n\(String(repeating: "ab", count: 32))\n0011\n")
        let file = try DeviceFile(path: path)
        #expect(file.shortTokenCount == 2)
        #expect(file.shortTokenLines == [1, 3])
    }

    @Test func missingFile() {
        #expect(throws: DeviceFile.Problem.file(.missing(path: dir.file("nope")))) { try DeviceFile(path: dir.file("nope")) }
    }

    @Test func lineReaderHandlesLinesAcrossBufferEdgesAndHugeLines() throws {
        var text = ""
        for i in 0..<1000 { text += String(repeating: "a", count: i % 37) + "\(i)\n" }
        text += String(repeating: "z", count: 100) + "\nlast"
        let path = try dir.write("l.txt", text)
        let fd = open(path, O_RDONLY)
        let reader = LineReader(fd: fd, ownsDescriptor: true, bufferSize: 64)
        var lines: [String] = []
        while let l = reader.next() { lines.append(l) }
        #expect(lines.count == 1002)
        #expect(lines[5] == "aaaaa5")
        #expect(lines[1000] == String(repeating: "z", count: 64))
        #expect(lines[1001] == "last")
    }
}
