import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSMock

/// The notification log must never hold the server up: a reader that stops reading costs log lines, not answers.
@Suite struct MockLogTests {
    /// A pipe whose read end nobody reads, shrunk to one page so a few log lines fill it.
    final class UnreadPipe {
        let readFD: Int32
        let writeFD: Int32
        init() throws {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            readFD = fds[0]
            writeFD = fds[1]
            _ = fcntl(writeFD, 1031, 4096)  // 1031: F_SETPIPE_SZ
        }
        deinit {
            close(readFD)
            close(writeFD)
        }
    }

    /// The log is JSON: text from a request (a Live Activity's event, the device in the path) is escaped as JSON
    /// does (`\u001b`, `\u009b`, `\u202e`), never as the text escaper's `\u{1B}` inside a JSON string.
    @Test func textFromARequestIsEscapedAsJSONDoes() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let writer = MockLogWriter(fd: fds[1])
        #expect(writer.start())
        let log = MockLog(writer: writer)
        var d = MockDecision(
            reason: nil, apnsID: "", timestamp: nil, device: "3f2a", topic: "com.example.app", pushType: "liveactivity",
            priority: 10, auth: .certificate, payloadSize: 1, firstTokenAccepted: true)
        d.liveActivityEvent = MockBody.liveActivityEvent(
            Array(#"{"aps":{"event":"up\u001b[2J\u009bdate\u202e"}}"#.utf8))
        #expect(d.liveActivityEvent == "up\u{1B}[2J\u{9B}date\u{202E}")
        log.record(d, connection: 1)
        log.flush()
        _ = writer.finish(waitingAtMost: 2000)
        close(fds[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        let line = String(decoding: bytes, as: UTF8.self)
        #expect(line.contains(#""live_activity_event":"up\u001b[2J\u009bdate\u202e""#), "\(line)")
        #expect(!line.contains("\\u{"), "\(line)")
    }

    @Test func anUnreadLogPipeDoesNotStallTheServer() throws {
        let pipe = try UnreadPipe()
        let mock = try MockHarness(logDescriptor: pipe.writeFD)
        // About 300 bytes a line: 60 answers overflow the page many times over.
        let run = try mock.nghttp(paths: MockHarness.devicePaths(60))
        #expect(run.statuses.count == 60)
        #expect(run.statuses.allSatisfy { $0.contains("200") })
        // Another connection is still served.
        #expect(try mock.curl().status == 200)
        let started = Date()
        mock.server.stop()
        // It returns (the loops drain for 700 ms, the writer gets 200 ms); the bound allows a busy machine.
        #expect(Date().timeIntervalSince(started) < MockHarness.stopBound)
    }

    @Test func aFullQueueDropsLinesAndSaysSoOnce() throws {
        let pipe = try UnreadPipe()
        ProcessSignals.ignoreBrokenPipe()  // the stuck write ends with EPIPE when the pipe closes
        let writer = MockLogWriter(fd: pipe.writeFD, capacity: 1000)
        let warnings = LockedValue(0)
        writer.onFirstDrop = { _ in warnings.withLock { $0 += 1 } }
        #expect(writer.start())
        let line = Array(String(repeating: "x", count: 99).utf8) + [0x0A]
        for _ in 0..<200 { writer.submit(line, lines: 1) }
        // The page takes about 40 lines, the queue 10; the rest is dropped.
        #expect(writer.droppedLines >= 100)
        #expect(warnings.current == 1)
        let started = Date()
        let lost = writer.finish(waitingAtMost: 50)
        // It gives up on the stuck writer after 50 ms instead of waiting for the unread pipe.
        #expect(Date().timeIntervalSince(started) < MockHarness.stopBound)
        #expect(lost >= writer.droppedLines)
        #expect(lost < 200)
    }

    @Test func aReaderGetsEveryLineInOrder() throws {
        let directory = try TemporaryDirectory(prefix: "mocklog")
        let fd = open(directory.file("log"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let writer = MockLogWriter(fd: fd)
        #expect(writer.start())
        for i in 0..<500 { writer.submit(Array("\(i)\n".utf8), lines: 1) }
        #expect(writer.finish(waitingAtMost: 2000) == 0)
        let lines = try directory.read("log").split(separator: "\n")
        #expect(lines == (0..<500).map { Substring(String($0)) })
    }
}
