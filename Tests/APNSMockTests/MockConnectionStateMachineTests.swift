import APNSCore
import APNSHTTP2
import Testing

@testable import APNSMock

/// The mock connection's rules without sockets: each fault, `--error-close-after`, the timeouts, shutdown and the
/// limits as tables of events, checked for which streams are answered, what the GOAWAY says and how the
/// connection ends.
@Suite struct MockConnectionStateMachineTests {
    typealias Machine = MockConnectionStateMachine
    typealias Action = Machine.Action

    static let second: UInt64 = 1_000_000_000

    /// Plays a client against the machine, recording what it was told to do.
    struct Script {
        var machine: Machine
        var now: UInt64 = 0
        /// Streams whose request `RequestChecker` was asked about.
        var judged: [Int32] = []

        init(_ policy: Machine.Policy = Machine.Policy()) {
            machine = Machine(policy: policy, now: 0)
        }

        mutating func handshake(_ credentials: Machine.Credentials = .certificate(refused: false)) -> [Action] {
            machine.handshakeFinished(credentials, now: now)
        }

        /// A whole request on `stream`; the checker's verdict is `reason` (nil: 200).
        mutating func request(
            _ stream: Int32, _ reason: APNSReason? = nil, head: Bool = false,
            firstToken: Bool = false
        ) -> [Action] {
            var asked = false
            let actions = machine.requestComplete(streamID: stream, isHead: head, now: now) {
                asked = true
                return Machine.Verdict(reason: reason, firstTokenAccepted: firstToken)
            }
            if asked { judged.append(stream) }
            return actions
        }

        /// Requests on `streams`, all answered 200 (checked).
        mutating func answered(_ streams: [Int32]) {
            for s in streams {
                #expect(request(s) == [.logReceived(streamID: s), .answer(streamID: s, withBody: true)], "stream \(s)")
            }
        }
    }

    static func json(_ reason: APNSReason) -> [UInt8] { Array(#"{"reason":"\#(reason.rawValue)"}"#.utf8) }

    static func settings(_ streams: UInt32) -> HTTP2ServerSettings {
        HTTP2ServerSettings(maxConcurrentStreams: streams, maxUnfinishedRequestBytes: 16 * 1024 * 1024)
    }

    // MARK: A faithful APNs

    @Test func answersEveryRequestOnACertificateConnection() {
        var s = Script()
        #expect(s.handshake() == [.startHTTP2(Self.settings(1000))])
        s.answered([1, 3, 5, 7])
        #expect(s.machine.phase == .http2)
        #expect(s.request(9, .badTopic) == [.logReceived(streamID: 9), .answer(streamID: 9, withBody: true)])
        #expect(s.judged == [1, 3, 5, 7, 9])
    }

    @Test func unfinishedRequestDataIsCappedAt16MiBPerConnection() {
        var s = Script()
        guard case .startHTTP2(let settings)? = s.handshake().first else {
            Issue.record("no session started")
            return
        }
        #expect(settings.maxUnfinishedRequestBytes == 16 * 1024 * 1024)
    }

    // MARK: Faults, each with answers before it

    @Test func goAwayFaultNamesTheLastAnswerAndLeavesLaterStreamsUnanswered() {
        var s = Script(Machine.Policy(faults: MockFaults(goAwayAfterStreams: 2)))
        _ = s.handshake()
        s.answered([1])
        #expect(
            s.request(5) == [
                .logReceived(streamID: 5), .answer(streamID: 5, withBody: true),
                .goAway(lastStream: 5, debugData: Self.json(.shutdown)),
            ])
        // Below the GOAWAY and completing later: still answered. Above it: not processed, not even logged.
        s.answered([3])
        #expect(s.request(7) == [])
        #expect(s.judged == [1, 5, 3])
        #expect(s.machine.phase == .http2)
        #expect(s.machine.sessionFinished() == [.close(.graceful)])
    }

    @Test func goAwayFaultCarriesTheConfiguredDebugText() {
        let text = "Maximum active streams violated for this endpoint."
        var s = Script(Machine.Policy(faults: MockFaults(goAwayAfterStreams: 1, goAwayDebugText: text)))
        _ = s.handshake()
        #expect(s.request(1).last == .goAway(lastStream: 1, debugData: Array(text.utf8)))
    }

    @Test func goAwayFaultAtZeroFollowsTheSettings() {
        var s = Script(Machine.Policy(faults: MockFaults(goAwayAfterStreams: 0)))
        #expect(
            s.handshake() == [
                .startHTTP2(Self.settings(1000)), .goAway(lastStream: 0, debugData: Self.json(.shutdown)),
            ])
        #expect(s.request(1) == [])
        #expect(s.judged.isEmpty)
    }

    @Test func closeFaultDiesUnderTheNextRequestWithoutGoAway() {
        var s = Script(Machine.Policy(faults: MockFaults(closeAfterRequests: 2)))
        _ = s.handshake()
        s.answered([1, 3])
        #expect(s.request(5) == [.logReceived(streamID: 5), .close(.abrupt)])
        #expect(s.machine.phase == .closing(.abrupt))
        #expect(s.request(7) == [])
        #expect(s.judged == [1, 3])
    }

    @Test func resetFaultResetsAfterItsAnswers() {
        var s = Script(Machine.Policy(faults: MockFaults(resetAfterAnswers: 2)))
        _ = s.handshake()
        s.answered([1])
        #expect(s.request(3) == [.logReceived(streamID: 3), .answer(streamID: 3, withBody: true), .close(.reset)])
        #expect(s.request(5) == [])
        #expect(s.machine.phase == .closing(.reset))
        #expect(s.judged == [1, 3])

        var atOnce = Script(Machine.Policy(faults: MockFaults(resetAfterAnswers: 0)))
        #expect(atOnce.handshake() == [.startHTTP2(Self.settings(1000)), .close(.reset)])
        #expect(atOnce.request(1) == [])
    }

    @Test func eofFaultEndsWithFINAfterItsAnswers() {
        var s = Script(Machine.Policy(faults: MockFaults(eofAfterAnswers: 1)))
        _ = s.handshake()
        #expect(s.request(1) == [.logReceived(streamID: 1), .answer(streamID: 1, withBody: true), .close(.endOfFile)])
        #expect(s.request(3) == [])
        #expect(s.machine.phase == .closing(.endOfFile))

        var atOnce = Script(Machine.Policy(faults: MockFaults(eofAfterAnswers: 0)))
        #expect(atOnce.handshake() == [.startHTTP2(Self.settings(1000)), .close(.endOfFile)])
    }

    @Test func dropFaultReceivesWhatArrivedWithItAndAnswersNothing() {
        var s = Script(Machine.Policy(faults: MockFaults(dropUnansweredAfter: 1)))
        _ = s.handshake()
        s.answered([1])
        #expect(s.request(3) == [.logReceived(streamID: 3), .close(.reset)])
        // The rest of the same read: received (logged), never judged or answered.
        #expect(s.request(5) == [.logReceived(streamID: 5)])
        #expect(s.judged == [1])
        #expect(s.machine.phase == .closing(.reset))
    }

    @Test func neverAnswerReceivesAndNeverJudges() {
        var s = Script(Machine.Policy(faults: MockFaults(neverAnswer: true)))
        _ = s.handshake()
        #expect(s.request(1) == [.logReceived(streamID: 1)])
        #expect(s.request(3) == [.logReceived(streamID: 3)])
        #expect(s.judged.isEmpty)
        #expect(s.machine.phase == .http2)
    }

    @Test func http1OnlyAnswersAnyBytesWithAnHTTP1ErrorAndCloses() {
        var s = Script(Machine.Policy(faults: MockFaults(http1Only: true)))
        #expect(s.handshake() == [.speakHTTP1])
        #expect(s.machine.phase == .http1)
        #expect(s.machine.http1BytesReceived() == [.http1Error, .close(.graceful)])
        #expect(s.machine.http1BytesReceived() == [])
    }

    @Test func faultsThatDoNotApplyLeaveTheConnectionFaithful() {
        var s = Script(Machine.Policy(faults: .none))
        _ = s.handshake()
        s.answered([1, 3, 5])
    }

    // MARK: --error-close-after

    @Test func errorCloseAfterClosesAtOnceAfterABadDeviceToken() {
        var s = Script(Machine.Policy(errorCloseAfter: 3))
        _ = s.handshake()
        s.answered([1])
        #expect(
            s.request(3, .badDeviceToken) == [
                .logReceived(streamID: 3), .answer(streamID: 3, withBody: true),
                .goAway(lastStream: 3, debugData: Self.json(.badDeviceToken)),
            ])
        #expect(s.request(5) == [])
        #expect(s.machine.goAwayLastStream == 3)
    }

    @Test func errorCloseAfterCountsOtherErrorsOneEachAnd410sNothing() {
        var s = Script(Machine.Policy(errorCloseAfter: 2))
        _ = s.handshake()
        for stream in stride(from: Int32(1), through: 9, by: 2) {
            #expect(
                s.request(stream, .unregistered) == [
                    .logReceived(streamID: stream), .answer(streamID: stream, withBody: true),
                ])
        }
        #expect(s.request(11, .badTopic).count == 2)
        s.answered([13])
        #expect(s.request(15, .badPriority).last == .goAway(lastStream: 15, debugData: Self.json(.badPriority)))
        #expect(s.request(17, .badPriority) == [])
    }

    @Test func errorCloseAfterIsOffByDefault() {
        var s = Script()
        _ = s.handshake()
        for stream in stride(from: Int32(1), through: 21, by: 2) {
            #expect(s.request(stream, .badDeviceToken).count == 2)
        }
    }

    // MARK: Time

    @Test func handshakeTimeoutByTimeAlone() {
        var s = Script(Machine.Policy(handshakeTimeoutNs: 3 * Self.second))
        #expect(s.machine.wakeAt == 3 * Self.second)
        #expect(s.machine.timePassed(now: 3 * Self.second - 1) == [])
        #expect(s.machine.timePassed(now: 3 * Self.second) == [.closeAtOnce])
        #expect(s.machine.phase == .closed)
        #expect(s.handshake() == [])
    }

    @Test func idleTimeoutWhenNoRequestArrives() {
        var s = Script()
        s.now = 2 * Self.second
        _ = s.handshake()
        #expect(s.machine.wakeAt == 12 * Self.second)
        #expect(s.machine.timePassed(now: 12 * Self.second - 1) == [])
        #expect(
            s.machine.timePassed(now: 12 * Self.second)
                == [.goAway(lastStream: nil, debugData: Self.json(.idleTimeout)), .close(.graceful)])
        #expect(s.machine.phase == .closing(.graceful))
        #expect(s.machine.timePassed(now: 30 * Self.second) == [])
    }

    @Test func idleTimeoutAfterAnswersToo() {
        var s = Script()
        _ = s.handshake()
        s.now = 5 * Self.second
        s.answered([1])
        #expect(s.machine.wakeAt == 15 * Self.second)
        #expect(s.machine.timePassed(now: 14 * Self.second) == [])
        s.now = 14 * Self.second
        s.answered([3])
        #expect(s.machine.timePassed(now: 23 * Self.second) == [])
        #expect(
            s.machine.timePassed(now: 24 * Self.second).first
                == .goAway(lastStream: nil, debugData: Self.json(.idleTimeout)))
    }

    @Test func idleTimeoutEndsASilentHTTP1Connection() {
        var s = Script(Machine.Policy(faults: MockFaults(http1Only: true), idleTimeoutNs: Self.second))
        _ = s.handshake()
        #expect(s.machine.timePassed(now: Self.second) == [.close(.graceful)])
    }

    // MARK: Shutdown, closes

    @Test func shutdownWithStreamsOpenSaysGoAwayOnceAndStillAnswers() {
        var s = Script()
        _ = s.handshake()
        s.answered([1, 3])
        #expect(s.machine.shutdown() == [.goAway(lastStream: nil, debugData: Self.json(.shutdown))])
        s.answered([5])
        #expect(s.machine.shutdown() == [])
        #expect(s.machine.phase == .http2)
        #expect(s.machine.sessionFinished() == [.close(.graceful)])
    }

    @Test func shutdownAfterTheMocksOwnGoAwayAddsNone() {
        var s = Script(Machine.Policy(faults: MockFaults(goAwayAfterStreams: 1)))
        _ = s.handshake()
        _ = s.request(1)
        #expect(s.machine.shutdown() == [])
    }

    @Test func shutdownBeforeHTTP2EndsAtOnce() {
        var handshaking = Script()
        #expect(handshaking.machine.shutdown() == [.closeAtOnce])
        var http1 = Script(Machine.Policy(faults: MockFaults(http1Only: true)))
        _ = http1.handshake()
        #expect(http1.machine.shutdown() == [.closeAtOnce])
    }

    @Test func clientEndsAndFailures() {
        var left = Script()
        _ = left.handshake()
        #expect(left.machine.clientClosed() == [.close(.graceful)])
        #expect(left.request(1) == [])

        var broken = Script()
        _ = broken.handshake()
        #expect(broken.machine.sessionFailed() == [.close(.graceful)])

        var reset = Script()
        _ = reset.handshake()
        #expect(reset.machine.connectionFailed() == [.closeAtOnce])
        #expect(reset.machine.phase == .closed)
        #expect(reset.machine.connectionFailed() == [])
    }

    // MARK: Credentials and streams

    @Test func tokenConnectionGetsOneStreamUntilItsFirstGoodToken() {
        var s = Script()
        #expect(s.handshake(.token) == [.startHTTP2(Self.settings(1))])
        #expect(
            s.request(1, .invalidProviderToken) == [.logReceived(streamID: 1), .answer(streamID: 1, withBody: true)])
        #expect(
            s.request(3, firstToken: true)
                == [.logReceived(streamID: 3), .answer(streamID: 3, withBody: true), .raiseStreamLimit(1000)])
        #expect(s.machine.streamLimit == 1000)
        s.answered([5])
    }

    @Test func refusedCertificateGetsOneStreamAtATime() {
        var s = Script()
        #expect(s.handshake(.certificate(refused: true)) == [.startHTTP2(Self.settings(1))])
        #expect(s.request(1, .badCertificate).count == 2)
        #expect(s.machine.streamLimit == 1)
    }

    @Test func configuredStreamLimitIsAdvertised() {
        var s = Script(Machine.Policy(maxConcurrentStreams: 7))
        #expect(s.handshake() == [.startHTTP2(Self.settings(7))])
        var token = Script(Machine.Policy(maxConcurrentStreams: 7))
        _ = token.handshake(.token)
        #expect(token.request(1, firstToken: true).last == .raiseStreamLimit(7))
    }

    @Test func headIsAnsweredWithoutABody() {
        var s = Script()
        _ = s.handshake()
        #expect(
            s.request(1, .methodNotAllowed, head: true) == [
                .logReceived(streamID: 1), .answer(streamID: 1, withBody: false),
            ])
        #expect(s.request(3, .methodNotAllowed) == [.logReceived(streamID: 3), .answer(streamID: 3, withBody: true)])
    }
}
