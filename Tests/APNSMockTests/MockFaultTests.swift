import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// The fault injection other tests rely on, observed with nghttp and curl.
@Suite struct MockFaultTests {
    @Test func goAwayAfterNStreamsNamesTheLastAnsweredStream() throws {
        let mock = try MockHarness(faults: MockFaults(goAwayAfterStreams: 1, connections: 1))
        let first = try mock.nghttp(paths: MockHarness.devicePaths(3))
        #expect(first.statuses.count == 1)
        let goAway = try #require(first.goAwayDetails.first)
        let answered = try #require(first.stdout.components(separatedBy: "\n").first { $0.contains(":status: 200") })
        let stream = try #require(answered.split(separator: "=").dropFirst().first?.prefix { $0.isNumber })
        #expect(goAway.contains("last_stream_id=\(stream),"))
        #expect(goAway.contains("NO_ERROR"))
        #expect(goAway.contains(#"{"reason":"Shutdown"}"#))
        // Only the first connection misbehaves: a new one answers everything.
        let second = try mock.nghttp(paths: MockHarness.devicePaths(3))
        #expect(second.statuses.count == 3)
        #expect(second.goAwayDetails.isEmpty)
    }

    @Test func goAwayAfterZeroAnswersNothing() throws {
        let mock = try MockHarness(faults: MockFaults(goAwayAfterStreams: 0))
        let r = try mock.nghttp(paths: MockHarness.devicePaths(2))
        #expect(r.statuses.isEmpty)
        #expect(r.goAwayDetails.first?.contains("last_stream_id=0,") == true)
    }

    @Test func closeAfterNRequestsDropsTheConnectionWithoutGoAway() throws {
        let mock = try MockHarness(faults: MockFaults(closeAfterRequests: 1))
        let r = try mock.nghttp(paths: MockHarness.devicePaths(1) + MockHarness.devicePaths(3).suffix(1))
        #expect(r.statuses.count == 1)
        #expect(r.goAwayDetails.isEmpty)
    }

    @Test func neverAnswerLeavesTheClientToTimeOut() async throws {
        try await offThePool {
            let mock = try MockHarness(faults: MockFaults(neverAnswer: true))
            let r = try mock.nghttp(paths: MockHarness.devicePaths(2), timeoutSeconds: 1)
            #expect(r.statuses.isEmpty)
            #expect(r.stdout.contains("recv SETTINGS"))
        }
    }

    @Test func http1OnlyServerDoesNotSpeakHTTP2() throws {
        let mock = try MockHarness(faults: MockFaults(http1Only: true))
        let (status, _, headers) = try mock.curl()
        #expect(status == 505)
        #expect(headers.hasPrefix("http/1.1 505"))
    }

    @Test func stopSendsShutdownGoAwayAndReturnsWithinASecond() throws {
        let mock = try MockHarness(faults: MockFaults(neverAnswer: true), log: true)
        let box = ResultBox()
        let client = Thread {
            box.result = try? mock.nghttp(paths: MockHarness.devicePaths(1), timeoutSeconds: 5)
            box.done.signal()
        }
        client.start()
        // Stopped once the client's request is in (it now waits for an answer), however long starting took.
        #expect(
            Wait.until { !((try? mock.logLines(event: "received")) ?? []).isEmpty },
            "the request never reached the mock")
        let start = Date()
        mock.server.stop()
        // It returns although the client still waits for answers (about 700 ms of draining).
        #expect(Date().timeIntervalSince(start) < MockHarness.stopBound)
        #expect(box.done.wait(timeout: .now() + 10) == .success)
        let r = try #require(box.result)
        #expect(r.goAwayDetails.first?.contains(#"{"reason":"Shutdown"}"#) == true)
    }
}

/// Carries a client's result out of its thread.
final class ResultBox: @unchecked Sendable {
    var result: CommandResult?
    let done = DispatchSemaphore(value: 0)
}
