import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// A device list from a pipe whose writer is slow (`tail -f`, a script that finds tokens one by one): each
/// token is sent when its line arrives, not when the next one does. The send waited in the read for the next
/// line with the request queued and its answer unread, so the last token before a pause went out only at the
/// next line or at the end of the list.
@Suite struct SlowDeviceStreamTests {
    /// The two ends of a pipe; the read end is closed with the value, the write end by the test.
    final class Pipe: Sendable {
        let reading: Int32
        let writing: Int32
        init() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            (reading, writing) = (ends[0], ends[1])
        }
        deinit { close(reading) }
    }

    /// A world whose standard input is a pipe's read end, on the real clocks (the mock dates nothing here).
    static func worldReadingAPipe(interrupts: DeliveredInterrupts? = nil) throws -> (TestWorld, Pipe) {
        let input = try Pipe()
        let test = TestWorld(
            standardInput: input.reading,
            clock: CommandClock(
                now: { SystemClock.now() }, monotonicNanoseconds: { SystemClock.monotonicNanoseconds() }),
            interrupts: interrupts)
        return (test, input)
    }

    @Test func eachTokenIsSentWhenItsLineArrives() async throws {
        try await offThePool {
            let mock = try InProcessMock(keepingLog: true)
            let (test, input) = try Self.worldReadingAPipe()
            defer { withExtendedLifetime(input) {} }
            let writing = input.writing
            let devices = (1...3).map { String(format: "%064x", $0) }
            let received = LockedValue<[Int]>([])
            let printed = LockedValue<[Bool]>([])
            let feeder = Thread {
                for (i, device) in devices.enumerated() {
                    _ = Array((device + "\n").utf8).withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                    // The pipe stays open: this token must reach the mock before any other line is written.
                    let counts = mock.log.answersPerDevice(expectingAtLeast: i + 1)
                    received.withLock { $0.append(counts.values.reduce(0, +)) }
                    // Its result is printed before the next line comes: a reader of the output (`| jq`) sees it.
                    let shown = Wait.until {
                        test.stdout.text.components(separatedBy: "\"status\":200").count - 1 == i + 1
                    }
                    printed.withLock { $0.append(shown) }
                }
                close(writing)
            }
            feeder.start()
            let status = test.run([
                "send", "--alert", "hi", "--devices", "-", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--cert", mock.certificate, "--topic", mock.bundleID, "--timeout", "20", "-o", "json",
            ])
            #expect(status == 0, "\(test.stderr.text)")
            #expect(received.current == [1, 2, 3], "answers the mock had logged after each line")
            #expect(printed.current == [true, true, true], "results printed before the next line came")
            #expect(test.stdout.text.components(separatedBy: "\"status\":200").count - 1 == 3, "\(test.stdout.text)")
        }
    }

    /// A list that pauses longer than the server keeps an idle connection: the server closes it while the send
    /// waits for the next line, and the next line goes out on a new connection.
    @Test func aPauseLongerThanTheServerKeepsAnIdleConnectionOpensANewOne() async throws {
        try await offThePool {
            let mock = try InProcessMock(keepingLog: true, adjusting: { $0.firstRequestTimeoutMilliseconds = 200 })
            let (test, input) = try Self.worldReadingAPipe()
            defer { withExtendedLifetime(input) {} }
            let writing = input.writing
            let devices = (1...2).map { String(format: "%064x", $0) }
            let ended = LockedValue(false)
            let feeder = Thread {
                _ = Array((devices[0] + "\n").utf8).withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                _ = mock.log.answersPerDevice(expectingAtLeast: 1)
                // The server's idle timeout, seen by the send while it waits for the next line.
                ended.withLock { $0 = Wait.until { test.stderr.text.contains("* connection ended") } }
                _ = Array((devices[1] + "\n").utf8).withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                close(writing)
            }
            feeder.start()
            let status = test.run([
                "send", "--alert", "hi", "--devices", "-", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--cert", mock.certificate, "--topic", mock.bundleID, "--timeout", "20", "-v", "-o", "json",
            ])
            let stderr = test.stderr.text
            #expect(status == 0, "\(stderr)")
            #expect(ended.current, "\(stderr)")
            #expect(stderr.contains("(connection 2)"), "\(stderr)")
            #expect(test.stdout.text.components(separatedBy: "\"status\":200").count - 1 == 2, "\(test.stdout.text)")
        }
    }

    /// A signal while the send waits for the next line ends the run at once, as at any other moment: exit 143,
    /// the token sent has its result, and `--unsent` says where the list stopped. Waiting in the read, the send
    /// saw the signal only when the next line came.
    @Test func aSignalWhileWaitingForTheNextLineEndsTheRun() async throws {
        try await offThePool {
            let mock = try InProcessMock(keepingLog: true)
            let interrupts = try DeliveredInterrupts()
            let (test, input) = try Self.worldReadingAPipe(interrupts: interrupts)
            defer { withExtendedLifetime(input) {} }
            let scratch = try TemporaryDirectory(prefix: "slow-unsent")
            let device = String(format: "%064x", 1)
            // Whether the run ended while the list was still open; the list is closed after, so a run that waits
            // in the read fails here instead of waiting for ever.
            let (ran, endedWhileOpen) = (LockedValue(false), LockedValue(false))
            let feeder = Thread {
                _ = Array((device + "\n").utf8).withUnsafeBytes { write(input.writing, $0.baseAddress, $0.count) }
                _ = mock.log.answersPerDevice(expectingAtLeast: 1)
                interrupts.deliver(SIGTERM)
                endedWhileOpen.withLock { $0 = Wait.until { ran.current } }
                close(input.writing)
            }
            feeder.start()
            let status = test.run([
                "send", "--alert", "hi", "--devices", "-", "--endpoint", mock.endpoint, "--ca-file", mock.caFile,
                "--cert", mock.certificate, "--topic", mock.bundleID, "--timeout", "20", "-o", "json",
                "--unsent", scratch.file("unsent.txt"),
            ])
            ran.withLock { $0 = true }
            _ = Wait.until { endedWhileOpen.current }
            #expect(endedWhileOpen.current, "the run ended only once the list was closed")
            #expect(status == 143, "\(test.stderr.text)")
            #expect(test.stdout.text.contains("\"status\":200"), "\(test.stdout.text)")
            let unsent = (try? scratch.read("unsent.txt")) ?? ""
            #expect(unsent.contains("the rest of --devices - after line 1 was not read"), "\(unsent)")
        }
    }

    /// A run that gave up (nothing listens on the server's port) leaves a pipe's rest unread, as an interrupt
    /// does: read to its end, a list that never ends (`tail -f`) kept the run alive, printing a failure for
    /// every line that came. Exit 69; the summary and `--unsent` say the rest was not read.
    @Test func aRunThatGaveUpDoesNotWaitForTheRestOfAPipe() async throws {
        try await offThePool {
            let mock = try InProcessMock()
            let (test, input) = try Self.worldReadingAPipe()
            defer { withExtendedLifetime(input) {} }
            let scratch = try TemporaryDirectory(prefix: "gave-up-unsent")
            let lines = (1...3).map { String(format: "%064x", $0) + "\n" }.joined()
            let (ran, endedWhileOpen) = (LockedValue(false), LockedValue(false))
            let feeder = Thread {
                _ = Array(lines.utf8).withUnsafeBytes { write(input.writing, $0.baseAddress, $0.count) }
                // The list stays open until the run ends; closed after, so a run that reads on fails here.
                endedWhileOpen.withLock { $0 = Wait.until(seconds: 20) { ran.current } }
                close(input.writing)
            }
            feeder.start()
            let status = test.run([
                "send", "--alert", "hi", "--devices", "-", "--endpoint", "https://127.0.0.1:1", "--ca-file",
                mock.caFile, "--cert", mock.certificate, "--topic", mock.bundleID, "--timeout", "20",
                "--unsent", scratch.file("unsent.txt"),
            ])
            ran.withLock { $0 = true }
            _ = Wait.until { endedWhileOpen.current }
            #expect(endedWhileOpen.current, "the run ended only once the list was closed")
            #expect(status == 69, "\(test.stderr.text)")
            #expect(
                test.stderr.text.contains(
                    "Connection refused; is the server running, and are --endpoint or --env "
                        + "right?; the rest of the list was not read"), "\(test.stderr.text)")
            let unsent = (try? scratch.read("unsent.txt")) ?? ""
            #expect(unsent.contains("# the rest of --devices - after line "), "\(unsent)")
        }
    }
}
