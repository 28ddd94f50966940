import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// How each fault (and `errorCloseAfter`) ends a connection, seen frame by frame and down to TCP by an
/// independent client (Python `ssl` + hand-parsed HTTP/2): the client tests that rely on these faults test
/// nothing if a fault quietly turns into another.
@Suite struct MockConnectionEndTests {
    static let token = "/3/device/" + String(repeating: "ab", count: 32)
    static func paths(_ n: Int) -> [String] { Array(repeating: token, count: n) }

    static func probe(
        _ mock: MockHarness, _ paths: [String], sequential: Bool = false, holdFirst: Bool = false,
        timeout: Double = 10
    ) throws -> InteropPython.Probe {
        try InteropPython.probe(
            port: mock.port, caFile: mock.state.caFile, certificate: mock.state.clientFile, paths: paths,
            sequential: sequential, holdFirst: holdFirst, timeoutSeconds: timeout)
    }

    @Test func resetAfterNAnswersThenTCPReset() throws {
        let mock = try MockHarness(faults: MockFaults(resetAfterAnswers: 2, connections: 1))
        let p = try Self.probe(mock, Self.paths(5))
        // Both answers arrive whole before the RST, and nothing else does: no GOAWAY, no close_notify.
        #expect(p.answers.map(\.status) == [200, 200], "\(p.raw)")
        #expect(p.goAway == nil)
        #expect(p.end == "reset", "\(p.raw)")
        // Only the first connection misbehaves.
        let next = try Self.probe(mock, Self.paths(5), timeout: 2)
        #expect(next.answers.count == 5, "\(next.raw)")
        #expect(next.end == "timeout")
    }

    @Test func endOfFileAfterNAnswersWithoutCloseNotify() throws {
        let mock = try MockHarness(faults: MockFaults(eofAfterAnswers: 3, connections: 1))
        let p = try Self.probe(mock, Self.paths(6))
        #expect(p.answers.map(\.status) == [200, 200, 200], "\(p.raw)")
        #expect(p.goAway == nil)
        #expect(p.end == "eof", "\(p.raw)")
        #expect(try Self.probe(mock, Self.paths(2), timeout: 2).answers.count == 2)
    }

    @Test func resetAndEndOfFileAfterZeroAnswerNothing() throws {
        let reset = try MockHarness(faults: MockFaults(resetAfterAnswers: 0))
        let r = try Self.probe(reset, Self.paths(2))
        #expect(r.answers.isEmpty)
        #expect(r.end == "reset", "\(r.raw)")
        let eof = try MockHarness(faults: MockFaults(eofAfterAnswers: 0))
        let e = try Self.probe(eof, Self.paths(2))
        #expect(e.answers.isEmpty)
        #expect(e.end == "eof", "\(e.raw)")
    }

    /// What `--fault-close-after` does on the wire: the answers given, then a FIN without GOAWAY or close_notify.
    @Test func closeAfterNIsAFinWithoutGoAwayOrCloseNotify() throws {
        let mock = try MockHarness(faults: MockFaults(closeAfterRequests: 1))
        for sequential in [false, true] {
            let p = try Self.probe(mock, Self.paths(4), sequential: sequential)
            #expect(p.answers.map(\.status) == [200], "\(p.raw)")
            #expect(p.goAway == nil)
            #expect(p.end == "eof" || p.end == "reset", "\(p.raw)")
        }
    }

    @Test func goAwayRefusesLaterStreamsAndClosesCleanly() throws {
        let mock = try MockHarness(faults: MockFaults(goAwayAfterStreams: 1))
        let p = try Self.probe(mock, Self.paths(5))
        #expect(p.answers.map(\.stream) == [1], "\(p.raw)")
        let goAway = try #require(p.goAway)
        #expect(goAway.lastStreamID == 1)
        #expect(goAway.errorCode == 0)
        #expect(goAway.data == #"{"reason":"Shutdown"}"#)
        // The streams above last-stream-id are refused by the GOAWAY itself: never answered, never reset
        // (a client must resend them elsewhere); then TLS closes properly.
        #expect(p.resets.isEmpty, "\(p.raw)")
        #expect(p.end == "close_notify", "\(p.raw)")
    }

    /// A real server keeps reading after its GOAWAY: a stream at or below last-stream-id whose body arrives only
    /// afterwards is still answered.
    @Test func goAwayStillAnswersStreamsAtOrBelowLastStreamID() throws {
        let mock = try MockHarness(faults: MockFaults(goAwayAfterStreams: 1))
        let p = try Self.probe(mock, Self.paths(4), holdFirst: true)
        // Stream 1's body is held; stream 3 is answered first and named in the GOAWAY.
        #expect(p.goAway?.lastStreamID == 3, "\(p.raw)")
        #expect(p.answers.map(\.stream) == [3, 1], "\(p.raw)")
        #expect(p.resets.isEmpty)
        #expect(p.end == "close_notify")
    }

    @Test func goAwayDebugTextAndAcceptedConnections() throws {
        let text = "Maximum active streams violated for this endpoint."
        let answers = LockedValue<[MockAnswer]>([])
        let mock = try MockHarness(faults: MockFaults(goAwayAfterStreams: 0, connections: 1, goAwayDebugText: text)) {
            $0.onAnswer = { answer in answers.withLock { $0.append(answer) } }
        }
        let p = try Self.probe(mock, Self.paths(2))
        #expect(p.goAway?.lastStreamID == 0)
        #expect(p.goAway?.data == text)
        #expect(p.answers.isEmpty)
        #expect(try mock.curl().status == 200)
        // The only answer went out on the second connection the mock accepted: the probe's was the first.
        #expect(answers.current.map(\.connection) == [2])
    }

    @Test func errorCloseAfterCountsErrorsBut410sNot() throws {
        let bad = String(repeating: "0f", count: 32)
        let gone = String(repeating: "aa", count: 32)
        let mock = try MockHarness(unregistered: [gone], rejections: [bad: .deviceTokenNotForTopic]) {
            $0.errorCloseAfter = 3
        }
        let p = try Self.probe(
            mock,
            [
                "/3/device/" + bad, "/3/device/" + gone, "/3/device/" + bad, Self.token,
                "/3/device/" + bad, Self.token,
            ], sequential: true)
        #expect(p.answers.map(\.status) == [400, 410, 400, 200, 400], "\(p.raw)")
        let goAway = try #require(p.goAway)
        #expect(goAway.lastStreamID == 9)
        #expect(goAway.data == #"{"reason":"DeviceTokenNotForTopic"}"#)
        #expect(p.end == "close_notify")
    }

    @Test func errorCloseAfterClosesAtOnceOnBadDeviceToken() throws {
        let mock = try MockHarness { $0.errorCloseAfter = 5 }
        let p = try Self.probe(mock, [Self.token, "/3/device/zz", Self.token], sequential: true)
        #expect(p.answers.map(\.status) == [200, 400], "\(p.raw)")
        #expect(p.goAway?.lastStreamID == 3)
        #expect(p.goAway?.data == #"{"reason":"BadDeviceToken"}"#)
        // The answer's body before the GOAWAY: python's h2 drops a DATA frame that follows one.
        #expect(p.raw.contains(#""answers_before": 2"#), "\(p.raw)")
    }

    @Test func withoutErrorCloseAfterErrorsNeverCloseTheConnection() async throws {
        try await offThePool {
            let mock = try MockHarness()
            let p = try Self.probe(mock, Array(repeating: "/3/device/zz", count: 6), sequential: true, timeout: 2)
            #expect(p.answers.count == 6)
            #expect(p.goAway == nil)
            #expect(p.end == "timeout")
        }
    }

    @Test func onAnswerSeesEveryAnswerOnce() throws {
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var answers: [MockAnswer] = []
        }
        let tally = Tally()
        let mock = try MockHarness { configuration in
            configuration.onAnswer = { answer in tally.lock.withLock { tally.answers.append(answer) } }
        }
        let r = try mock.nghttp(paths: MockHarness.devicePaths(3))
        #expect(r.statuses.count == 3)
        #expect(try mock.curl(path: "/3/device/zz").status == 400)
        let seen = tally.lock.withLock { tally.answers }
        #expect(seen.count == 4)
        let perDevice = Dictionary(grouping: seen.compactMap(\.device), by: { $0 }).mapValues(\.count)
        #expect(MockHarness.devicePaths(3).allSatisfy { perDevice[String($0.dropFirst("/3/device/".count))] == 1 })
        let bad = try #require(seen.last)
        #expect(bad.device == "zz")
        #expect(bad.status == 400)
        #expect(bad.reason == .badDeviceToken)
        #expect(Set(seen.prefix(3).map(\.connection)).count == 1)
        #expect(bad.connection != seen[0].connection)
        #expect(seen.allSatisfy { UUIDString.isCanonical($0.apnsID) })
    }

    @Test func theStreamLimitIsConfigurable() throws {
        let mock = try MockHarness { $0.maxConcurrentStreams = 7 }
        let r = try mock.nghttp(paths: MockHarness.devicePaths(2))
        #expect(r.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"), "\(r.stdout)")
        #expect(r.statuses.count == 2)
        // A token connection still starts at 1, then rises to the configured limit.
        let token = try mock.nghttp(
            paths: MockHarness.devicePaths(1),
            headers: ["apns-topic: com.example.demo", "authorization: bearer \(try mock.token())"], certificate: false)
        #expect(token.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
        #expect(token.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"))
    }
}
