import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `history show` reads an entry's results from the store as it prints them, so its read stays open for as long as
/// its output waits: `history show last | less`, left open while CI sends. SQLite's WAL lets writers go on past a
/// reader; these tests hold it to that.
@Suite struct HistoryPagerTests {
    /// A pipe read as a pager reads it: the first line at once, the rest only when `resume` is called.
    final class PagerPipe: Sendable {
        let writeEnd: Int32
        private let firstLine = DispatchSemaphore(value: 0)
        private let resumed = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)
        private let lines = LockedValue(0)

        init() throws {
            let (readEnd, writeEnd) = try HeadPipe.openPipe()
            self.writeEnd = writeEnd
            let (firstLine, resumed, done, lines) = (self.firstLine, self.resumed, self.done, self.lines)
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var waited = false
                while true {
                    // One byte at a time until the first line, so the pipe is full again at once.
                    let n = read(readEnd, &buffer, waited ? buffer.count : 1)
                    if n <= 0 { break }
                    let newlines = buffer[..<n].filter { $0 == 0x0A }.count
                    lines.withLock { $0 += newlines }
                    if !waited && newlines > 0 {
                        firstLine.signal()
                        resumed.wait()
                        waited = true
                    }
                }
                close(readEnd)
                done.signal()
            }
        }

        /// Waits until the command has printed its first line (nil after 30 s).
        func waitForFirstLine() -> Bool { firstLine.wait(timeout: .now() + 30) == .success }

        /// Reads on to the end; call `finish` once the command returned.
        func resume() { resumed.signal() }

        /// Closes the write end and returns how many lines were read (nil when the reader did not end in 30 s).
        func finish() -> Int? {
            close(writeEnd)
            guard done.wait(timeout: .now() + 30) == .success else { return nil }
            return lines.current
        }
    }

    static func token(_ i: Int) -> String { String(format: "%064x", 0xab00_0000 + i) }

    @Test func sendsRecordWhileAShowWaitsOnItsReader() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let home = try HistoryHome()
            // 3,000 results print some 300 KB, far more than a pipe holds.
            let list = try home.root.write("devices.txt", (0..<3000).map(Self.token).joined(separator: "\n") + "\n")
            let batch = try home.send(mock, ["--alert", "batch", "--devices", list, "-q"])
            #expect(batch.status == 0, "\(batch.stderr)")

            let pager = try PagerPipe()
            let shown = LockedValue<CommandResult?>(nil)
            let showDone = DispatchSemaphore(value: 0)
            let environment = home.environment
            Thread.detachNewThread {
                let result = try? InProcess.apnsctl(
                    ["history", "show", "last"], environment: environment, stdout: .descriptor(pager.writeEnd))
                shown.withLock { $0 = result }
                showDone.signal()
            }
            try #require(pager.waitForFirstLine(), "history show printed nothing")
            // The show is mid-entry, its read open, its output blocked: sends record all the same.
            for i in 0..<100 {
                let sent = try home.send(mock, ["--alert", "while shown", "-q", "-d", Self.token(i)])
                #expect(sent.status == 0 && sent.stderr.isEmpty, "send \(i): \(sent.stderr)")
            }
            pager.resume()
            #expect(showDone.wait(timeout: .now() + 60) == .success, "history show did not end")
            let lines = pager.finish()
            let show = try #require(shown.current)
            #expect(show.status == 0, "\(show.stderr)")
            #expect((lines ?? 0) > 3000, "\(lines ?? -1) lines shown")

            let entries = try home.run(["history", "list", "--limit", "500", "-o", "json"])
            #expect(entries.lines.count == 101, "\(entries.stderr)")
            // The log could not start over while the read was open; the first send after it empties it.
            let after = try home.send(mock, ["--alert", "after", "-q", "-d", Self.token(0)])
            #expect(after.status == 0, "\(after.stderr)")
            let wal = try FileManager.default.attributesOfItem(atPath: home.database + "-wal")[.size] as? Int
            #expect(wal == 0, "the WAL holds \(wal ?? -1) bytes")
        }
    }
}
