import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Unknown is unknown wherever it happens": a request completely written and left unanswered is
/// `"delivery":"unknown"` whatever ended the wait, judged by the mock's receipt log.
@Suite struct UnknownOutcomeTests {
    /// A mock that holds every answer past `--timeout`: each device it received is unknown, not a plain failure.
    @Test func aTimeoutLeavesWhatTheServerReceivedUnknown() throws {
        let mock = try InProcessMock(["--fault-never-answer"], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "unknown")
        let file = try SendDeliveryTests.deviceFile(30, in: scratch)
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", file, "--timeout", "1", "-o", "json"]))
        #expect(r.status == 69, "\(r.stderr)")
        let received = mock.receiptsPerDevice(expectingAtLeast: 1)
        #expect(!received.isEmpty)
        let unknown = Set(SendDeliveryTests.devices(in: r.lines.filter { $0.contains("\"delivery\":\"unknown\"") }))
        #expect(Set(received.keys).isSubset(of: unknown), "every device the server received is unknown")
        #expect(
            r.lines.filter { $0.contains("\"delivery\":\"unknown\"") }.allSatisfy {
                $0.contains("unknown: no answer within 1 s; APNs may have delivered it")
            })
        #expect(r.lines.count == 30, "one result each")
    }

    /// `--resend-unknown` against a server that resets every connection once it received a request: the resend
    /// cannot be made, and each device stays unknown, naming the first outcome and why the resend failed.
    @Test func aResendThatCannotBeMadeStaysUnknown() async throws {
        try await offThePool {
            let mock = try InProcessMock(["--fault-drop-unanswered-after", "0"], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "unknown")
            let file = try SendDeliveryTests.deviceFile(20, in: scratch)
            let run = try InProcess.Run(
                DeviceListStreamingTests.send(mock, ["--devices", file, "--resend-unknown", "-o", "json"]))
            // The sender gives up on its own; each connection is reset at its first request, so the server never
            // receives all 20 (waiting for them only runs out a deadline).
            let (status, _) = run.finish(within: 60)
            #expect(!mock.receiptsPerDevice(expectingAtLeast: 1).isEmpty, "the server received before it reset")
            #expect(status == 69, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 20)
            #expect(lines.allSatisfy { $0.contains("\"delivery\":\"unknown\"") }, "\(lines.first ?? "")")
            #expect(!lines.contains { $0.contains("\"error\":\"cannot connect") }, "never a plain connect failure")
            #expect(run.stderr.contains("20 may have been delivered"), "\(run.stderr)")
            #expect(!run.stderr.contains("add --resend-unknown"), "it was given: \(run.stderr)")
            // A resend was made and failed: all of them, or (on a loaded machine, the sender giving up after three
            // connections in a row) some, the rest never reached; never "the run ended before any".
            #expect(
                run.stderr.contains("sending them again failed too")
                    || run.stderr.contains(" sent again and failed too, and the run ended before the other "),
                "\(run.stderr)")
        }
    }

    /// A run that times out ends before `--resend-unknown` sends anything again: the summary says so, not that a
    /// resend failed (one request reached the server).
    @Test func aTimeoutEndsTheRunBeforeAnyResend() throws {
        let mock = try InProcessMock(["--fault-never-answer"], keepingLog: true)
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(
                mock, ["-d", SendDeliveryTests.token(1), "--timeout", "1", "--resend-unknown", "-o", "json"]))
        #expect(r.status == 69, "\(r.stderr)")
        #expect(mock.receiptsPerDevice(expectingAtLeast: 1).values.reduce(0, +) == 1)
        #expect(
            r.stderr.contains("1 may have been delivered: the run ended before --resend-unknown sent them again"),
            "\(r.stderr)")
        #expect(!r.stderr.contains("failed too"), "\(r.stderr)")
    }

    /// Requests refused by a GOAWAY go out again, yet the server processed each once: no result says it was
    /// sent more than once (`attempts` is absent when 1), in JSON or in text, nor does the history.
    @Test func devicesRefusedUnprocessedAreNotSaidToBeSentTwice() throws {
        let mock = try InProcessMock(["--fault-goaway-after", "10", "--fault-connections", "1"], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "attempts")
        let file = try SendDeliveryTests.deviceFile(50, in: scratch)
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["--devices", file, "-o", "json"]),
            environment: ["XDG_STATE_HOME": scratch.file("state")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 50 && !r.lines.contains { $0.contains("\"attempts\"") }, "\(r.stdout.prefix(800))")
        #expect(mock.receiptsPerDevice(expectingAtLeast: 50).values.allSatisfy { $0 == 1 })
        // The GOAWAY came: the answers came over two connections.
        let answered = HistoryReplayFidelityTests.answered(mock, count: 50)
        #expect(Set(answered.compactMap { $0["connection"] as? Int }).count == 2, "\(answered.prefix(3))")
        let fresh = try InProcessMock(["--fault-goaway-after", "10", "--fault-connections", "1"])
        let text = try InProcess.apnsctl(DeviceListStreamingTests.send(fresh, ["--devices", file]))
        #expect(text.status == 0 && text.lines.count == 51, "\(text.stderr)")
        #expect(!text.stdout.contains("times)"), "\(text.stdout.prefix(800))")
    }
}
