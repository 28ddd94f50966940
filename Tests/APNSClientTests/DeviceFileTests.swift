import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient

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

    /// A list saved as UTF-16 (Windows PowerShell's `>`), with or without its byte-order mark, little- or
    /// big-endian, is said to be UTF-16 with how to save it as UTF-8, not called a key's binary data.
    @Test func aUTF16ListIsSaidToBeUTF16() throws {
        let text = "\(String(repeating: "ab", count: 32))\r\n\(String(repeating: "cd", count: 32))\r\n"
        for (name, encoding) in [
            ("le.txt", String.Encoding.utf16LittleEndian), ("be.txt", .utf16BigEndian), ("bom.txt", .utf16),
        ] {
            let path = dir.file(name)
            try #require(text.data(using: encoding)).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try DeviceFile(path: path)
            } throws: { error in
                guard let p = error as? DeviceFile.Problem, case .keyFile(_, .utf16Text) = p else { return false }
                return p.message.hasPrefix("\(path): UTF-16 text (as Windows PowerShell's > writes it), not UTF-8")
            }
        }
        // From a pipe there is no file to convert: the conversion goes in the pipe (`iconv … -` read the terminal).
        let piped = DeviceFile.Problem.keyFile(file: "-", holding: .utf16Text).messages
        #expect(
            piped.count == 1
                && piped[0].hasSuffix(
                    "convert it in the pipe (… | iconv -f UTF-16 -t UTF-8 | apnsctl send … --devices -)"),
            "\(piped)")
        // A DER key is still binary data.
        let der = dir.file("key.der")
        try Data([
            0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05,
            0x00, 0x03, 0x82, 0x01, 0x0F, 0x00,
        ])
        .write(to: URL(fileURLWithPath: der))
        #expect {
            _ = try DeviceFile(path: der)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .keyFile(_, .binaryData) = p else { return false }
            return true
        }
        // A line of text in another encoding (Latin-1, no control bytes) is a bad line of the list, not a key.
        let latin = dir.file("latin1.txt")
        try Data(Array((String(repeating: "ab", count: 32) + "\n").utf8) + [0xE9, 0xE9, 0x7A, 0x7A, 0x0A])
            .write(to: URL(fileURLWithPath: latin))
        #expect {
            _ = try DeviceFile(path: latin)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
            return lines.map(\.line) == [2] && lines[0].reason.hasPrefix("not UTF-8 text")
        }
    }

    @Test func badTokenNamesTheLine() throws {
        let path = try dir.write("t.txt", "\(String(repeating: "ab", count: 32))\n# ok\nnot-a-token\n")
        #expect {
            _ = try DeviceFile(path: path)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
            return lines.map(\.line) == [3] && p.message.contains("t.txt:3") && p.message.contains("hex")
        }
    }

    @Test func everyBadLineOfARegularFileIsReportedTwentyThenCounted() throws {
        let good = String(repeating: "ab", count: 32)
        var text = "\u{FEFF}\(good)\n"
        for i in 0..<25 { text += "bad-\(i)\n\(good)\n" }
        let path = try dir.write("t.txt", text)
        #expect {
            _ = try DeviceFile(path: path)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, let more) = p else { return false }
            return lines.count == 20 && more == 5 && lines.first?.line == 2 && lines.last?.line == 40
                && p.messages.count == 21 && p.messages.last == "\(path): … and 5 more bad lines"
        }
    }

    @Test func aByteOrderMarkIsSkippedAndLongLinesAreBadAndQuotedShort() throws {
        let good = String(repeating: "ab", count: 32)
        let bom = try DeviceFile(path: try dir.write("bom.txt", "\u{FEFF}\(good)\n"))
        #expect(bom.count == 1)
        #expect(try bom.firstToken()?.hex == good)
        // A secret given as a device list by mistake: at most 8 characters are shown, control characters escaped.
        let long = String(repeating: "ab", count: 101)  // 202 hex digits: never cut down to a token
        let path = try dir.write("long.txt", "\(long)\nsecret\u{1B}]0;passphrase\n")
        #expect {
            _ = try DeviceFile(path: path)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, _) = p, lines.count == 2 else {
                return false
            }
            return lines[0].excerpt == "abababab…" && lines[0].reason.hasPrefix("202 characters")
                && lines[1].excerpt == "secret\\u{1B}]…" && !p.messages.joined().contains("passphrase")
        }
    }

    /// CLI.md: a line longer than 200 characters is a bad line, never cut down into a token, even when what is
    /// left after trimming its blanks would be one.
    @Test func aLineOver200CharactersIsBadFromAFileAndAPipe() throws {
        let good = String(repeating: "ab", count: 32)
        for line in [good + String(repeating: " ", count: 201 - 64), String(repeating: "\t", count: 201 - 64) + good] {
            #expect(line.count == 201)
            let path = try dir.write("padded.txt", "\(good)\n\(line)\n")
            #expect {
                _ = try DeviceFile(path: path)
            } throws: { error in
                guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
                return lines.map(\.line) == [2] && lines[0].reason.hasPrefix("201 characters")
            }
            let pipe = Pipe()
            pipe.fileHandleForWriting.write(Data(line.utf8 + [0x0A]))
            try pipe.fileHandleForWriting.close()
            let streamed = try DeviceFile(path: "-", standardInput: pipe.fileHandleForReading.fileDescriptor)
            #expect(throws: DeviceFile.Problem.self) { _ = try streamed.firstToken() }
        }
        // A line longer than the reader's buffer comes back cut: its length is "at least" what was read.
        let huge = try dir.write("huge.txt", String(repeating: "a", count: 70_000) + "\n")
        #expect {
            _ = try DeviceFile(path: huge)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
            return lines.first?.reason.hasPrefix("at least 65536 characters") == true
        }
        // 200 characters is still a line that may hold a padded token.
        let padded = try DeviceFile(
            path: try dir.write("200.txt", good + String(repeating: " ", count: 200 - 64) + "\n"))
        #expect(try padded.firstToken()?.hex == good)
    }

    /// A list whose lines end in a carriage return alone (classic Mac OS, spreadsheet exports) reads as one line
    /// of several values: said so, with how to convert it, not called whitespace inside one token.
    @Test func aListWithCarriageReturnLineEndsIsSaidSo() throws {
        let a = String(repeating: "ab", count: 32)
        let b = String(repeating: "cd", count: 32)
        for text in ["\(a)\r\(b)\r", "\(a)\r\(b)\r\(a)", String(repeating: "\(a)\r", count: 5000)] {
            let path = try dir.write("cr.txt", text)
            #expect {
                _ = try DeviceFile(path: path)
            } throws: { error in
                guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
                return lines.map(\.line) == [1] && lines[0].excerpt == "abababab…"
                    && lines[0].reason.hasPrefix("values split by carriage returns alone (CR")
                    && lines[0].reason.contains("tr '\\r' '\\n' < LIST > tokens.txt")
            }
        }
        // One token with a stray carriage return at its end is still that token.
        let one = try DeviceFile(path: try dir.write("one.txt", "\(a)\r\r\n\(b)\n"))
        #expect(all(try one.makeSource()) == [a, b])
    }

    /// `TOKEN  # owner` (exported lists carry such comments) is said to be a comment after the value, not a token
    /// "in 3 parts" to be given one per line; a line that is only a comment is skipped, as before.
    @Test func aCommentAfterAValueIsSaidSo() throws {
        let a = String(repeating: "ab", count: 32)
        for text in ["# owners\n\(a)  # Anna's phone\n", "\(a)\t#x\n", "\(a)\t# owner # spare\n"] {
            let path = try dir.write("commented.txt", text)
            #expect {
                _ = try DeviceFile(path: path)
            } throws: { error in
                guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
                return lines.count == 1 && lines[0].tokenProblem == nil
                    && lines[0].reason.hasPrefix("a comment after the value: a comment goes on a line of its own")
            }
        }
        // A device named "QA iPhone #2" is no value with a comment: its own problem is said.
        let named = try dir.write("named.txt", "QA iPhone #2\n")
        #expect {
            _ = try DeviceFile(path: named)
        } throws: { error in
            guard let p = error as? DeviceFile.Problem, case .badLines(_, let lines, 0) = p else { return false }
            return lines.count == 1 && !lines[0].reason.hasPrefix("a comment after the value")
        }
    }

    @Test func aFIFOIsStreamedOnceAndStopsAtItsFirstBadLine() throws {
        let good = String(repeating: "ab", count: 32)
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            let text = Array("\(good)\n\(good)\nnope\n\(good)\n".utf8)
            _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let file = try DeviceFile(path: fifo)
        #expect(file.isStreamed)
        #expect(file.count == nil)
        #expect(try file.firstToken()?.hex == good)
        #expect(all(try file.makeSource()) == [good, good])
        guard case .badLines(_, let lines, 0)? = file.streamProblem else {
            Issue.record("no problem recorded: \(String(describing: file.streamProblem))")
            return
        }
        #expect(lines.map(\.line) == [3])
    }

    @Test func shortTokensAreCounted() throws {
        let path = try dir.write("t.txt", "abcd\n\(String(repeating: "ab", count: 32))\n0011\n")
        let file = try DeviceFile(path: path)
        #expect(file.shortTokenCount == 2)
        #expect(file.shortTokenLines == [1, 3])
    }

    @Test func missingFile() {
        #expect(throws: DeviceFile.Problem.file(.missing(path: dir.file("nope")))) {
            try DeviceFile(path: dir.file("nope"))
        }
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

    /// A stream whose writer is slow: lines that give no token (blank, comments) are read as they come, so the
    /// sender waits on the pipe, not in a read behind them; a `-d` token first, then the stream, the same.
    @Test func aSlowStreamIsWaitedOnPastLinesWithoutATokenAndAfterTheFlags() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        func send(_ text: String) { #expect(posixWriteAll(ends[1], Array(text.utf8)) == nil) }
        let (first, second, flag) = (
            String(repeating: "1a", count: 32), String(repeating: "2b", count: 32), String(repeating: "3c", count: 32)
        )
        let stream = DeviceStreamSource(reader: LineReader(fd: ends[0], ownsDescriptor: true), file: "-")
        let chain = DeviceChainSource([DeviceArraySource([try #require(DeviceToken(plainHex: flag))]), stream])
        #expect(chain.descriptorToWaitFor() == nil)
        #expect(chain.next()?.hex == flag)
        // The flags ran out: the stream is next, with nothing written yet.
        #expect(chain.descriptorToWaitFor() == ends[0])
        send(first + "\n# a comment\n\n")
        #expect(chain.descriptorToWaitFor() == nil)
        #expect(chain.next()?.hex == first)
        #expect(chain.descriptorToWaitFor() == ends[0], "the comment and the blank line are read, not waited behind")
        send(second + "\n")
        #expect(chain.descriptorToWaitFor() == nil)
        #expect(chain.next()?.hex == second)
        close(ends[1])
        #expect(chain.descriptorToWaitFor() == nil)
        #expect(chain.next() == nil)
    }
}
