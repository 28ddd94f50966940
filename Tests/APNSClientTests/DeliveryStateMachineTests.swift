import Testing
@testable import APNSClient

/// The sender's rules without sockets: fault sequences as tables of events, each checked for the two
/// promises of CLI.md — every item ends with exactly one result, and nothing answered is sent again.
@Suite struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine<Int, Int>

    /// Drives the machine as the real driver does, playing a scripted server.
    struct Harness {
        var machine: Machine
        var now: UInt64 = 0
        /// Item → its results (must end with exactly one).
        var results: [Int: [Machine.Report]] = [:]
        /// Item → times submitted.
        var submissions: [Int: Int] = [:]
        /// Items the server answered: submitting one again is a duplicate push.
        var answered: Set<Int> = []
        var duplicates: [Int] = []
        /// Stream → item on the open connection.
        var streams: [Int32: Int] = [:]
        var nextStream: Int32 = 1
        var connectAttempts = 0
        var connected = false
        var finished = false
        /// What `.connect` does: nil connects, a failure fails.
        var connectOutcomes: [TransportFailure?] = []

        init(items: Int, policy: Machine.Policy = .init(timeoutNs: 30_000_000_000), settings: UInt32? = 1000) {
            var next = 0
            machine = Machine(policy: policy, source: {
                guard next < items else { return nil }
                defer { next += 1 }
                return next
            })
            self.settings = settings
        }

        let settings: UInt32?

        /// Runs actions until the machine waits or finishes.
        mutating func settle() {
            while true {
                switch machine.nextAction(now: now) {
                case .connect:
                    connectAttempts += 1
                    let outcome = connectOutcomes.isEmpty ? nil : connectOutcomes.removeFirst()
                    if let failure = outcome {
                        machine.connectFailed(failure, now: now)
                    } else {
                        connected = true
                        streams = [:]
                        nextStream = 1
                        machine.connected(now: now)
                        if let settings { machine.settingsReceived(maxConcurrentStreams: settings) }
                    }
                case .submit(let item):
                    submissions[item, default: 0] += 1
                    if answered.contains(item) { duplicates.append(item) }
                    streams[nextStream] = item
                    machine.submitted(streamID: nextStream, now: now)
                    nextStream += 2
                case .report(let item, let report):
                    results[item, default: []].append(report)
                case .wait:
                    return
                case .close:
                    connected = false
                    streams = [:]
                case .finish:
                    finished = true
                    return
                }
            }
        }

        /// The server answers these streams (status 200).
        mutating func answer(_ ids: [Int32], status: Int = 200) {
            for id in ids {
                guard let item = streams.removeValue(forKey: id) else { continue }
                answered.insert(item)
                machine.answered(streamID: id, status, now: now)
            }
        }

        /// The server answers every open stream.
        mutating func answerAll() { answer(streams.keys.sorted()) }

        /// Streams open now, in order.
        var open: [Int32] { streams.keys.sorted() }

        mutating func goAway(last: Int32) {
            machine.goAwayReceived(lastStreamID: last, note: "GOAWAY NO_ERROR")
            // nghttp2 then closes the streams above `last` as refused.
            for id in open where id > last {
                streams[id] = nil
                machine.streamReset(streamID: id, errorCode: 7, now: now)
            }
        }

        mutating func end(_ how: ConnectionEnd) {
            machine.connectionEnded(how, now: now)
            connected = false
            streams = [:]
        }

        mutating func advance(seconds: Double) {
            now += UInt64(seconds * 1e9)
            machine.tick(now: now)
        }

        /// Answers everything on every connection until the machine finishes.
        mutating func drain(maxTurns: Int = 10_000) {
            var turns = 0
            settle()
            while !finished && turns < maxTurns {
                answerAll()
                settle()
                turns += 1
            }
        }

        /// The promises: one result per item, no answered item sent again.
        func expectOneResultEach(_ items: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(duplicates.isEmpty, "answered items sent again: \(duplicates.prefix(5))", sourceLocation: sourceLocation)
            #expect(results.count == items, "items with a result: \(results.count) of \(items)", sourceLocation: sourceLocation)
            let twice = results.filter { $0.value.count != 1 }.map(\.key)
            #expect(twice.isEmpty, "items with more than one result: \(twice.prefix(5))", sourceLocation: sourceLocation)
        }

        func answeredCount() -> Int {
            results.values.filter { if case .answered = $0.first { return true } else { return false } }.count
        }

        func failures() -> [TransportFailure] {
            results.values.compactMap { if case .failed(let f, _) = $0.first { return f } else { return nil } }
        }
    }

    @Test func everythingAnsweredOnOneConnection() {
        var h = Harness(items: 2500)
        h.drain()
        h.expectOneResultEach(2500)
        #expect(h.answeredCount() == 2500)
        #expect(h.connectAttempts == 1)
        #expect(h.finished)
    }

    @Test func oneStreamUntilTheServerSettingsArrive() {
        var h = Harness(items: 10, settings: nil)
        h.settle()
        #expect(h.open.count == 1)
        h.machine.settingsReceived(maxConcurrentStreams: 4)
        h.settle()
        #expect(h.open.count == 4)
        h.machine.settingsReceived(maxConcurrentStreams: 1)  // APNs lowers the limit after a rejection
        h.answerAll()
        h.settle()
        #expect(h.open.count == 1)
        h.drain()
        h.expectOneResultEach(10)
    }

    @Test func concurrencyFlagCapsTheServerLimit() {
        var h = Harness(items: 50, policy: .init(timeoutNs: 1_000_000_000, concurrency: 7))
        h.settle()
        #expect(h.open.count == 7)
        h.drain()
        h.expectOneResultEach(50)
    }

    @Test func goAwayWithStreamsAboveAndBelowLastStreamID() {
        var h = Harness(items: 10)
        h.settle()
        #expect(h.open == [1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
        h.answer([1, 3])
        h.goAway(last: 5)      // 7…19 were not processed: back in the queue; 5 may still be answered
        h.settle()
        #expect(h.connected && h.open == [5], "waits for the stream at or below last-stream-id")
        h.answer([5])
        h.settle()             // closes, reconnects, sends the 7 refused ones
        #expect(h.connectAttempts == 2)
        #expect(h.open.count == 7)
        h.drain()
        h.expectOneResultEach(10)
        #expect(h.submissions[0] == 1 && h.submissions[1] == 1 && h.submissions[2] == 1)
    }

    @Test func answersArrivingTogetherWithGoAwayAreFinal() {
        var h = Harness(items: 20)
        h.settle()
        h.answer([1, 3, 5, 7, 9])
        h.goAway(last: 9)
        h.end(.closedCleanly)
        h.drain()
        h.expectOneResultEach(20)
        #expect((0..<5).allSatisfy { h.submissions[$0] == 1 })
    }

    @Test(arguments: [ConnectionEnd.closedCleanly, .eofWithoutCloseNotify, .reset, .failed("reading failed: x"),
                      .protocolError("bad frame"), .sessionFinished])
    func connectionEndAfterNAnswersResendsOnlyTheUnanswered(_ end: ConnectionEnd) {
        var h = Harness(items: 300)
        h.settle()
        h.answer(Array(h.open.prefix(120)))
        h.end(end)
        h.drain()
        h.expectOneResultEach(300)
        #expect(h.answeredCount() == 300)
        #expect(h.connectAttempts == 2)
    }

    @Test func writeFailureWithAnswersStillReadable() {
        var h = Harness(items: 2000)
        h.settle()
        #expect(h.open.count == 1000)
        h.machine.writeFailed()
        h.answer(Array(h.open.prefix(300)))  // read after the failed write
        h.settle()
        #expect(h.open.count == 700, "no new request after a failed write")
        h.end(.reset)
        h.drain()
        h.expectOneResultEach(2000)
        #expect(h.answeredCount() == 2000)
    }

    @Test func silenceUntilTimeoutFailsEverythingOnce() {
        var h = Harness(items: 1500, policy: .init(timeoutNs: 2_000_000_000))
        h.settle()
        h.advance(seconds: 1.9)
        h.settle()
        #expect(h.results.isEmpty)
        h.advance(seconds: 0.2)
        h.settle()
        #expect(h.finished)
        h.expectOneResultEach(1500)
        #expect(h.failures().allSatisfy { if case .timeout = $0 { return true } else { return false } })
        #expect(h.connectAttempts == 1)
    }

    @Test func anAnswerRestartsTheTimeout() {
        var h = Harness(items: 3, policy: .init(timeoutNs: 2_000_000_000))
        h.settle()
        h.advance(seconds: 1.5)
        h.answer([1])
        h.advance(seconds: 1.5)
        h.settle()
        #expect(!h.finished)
        h.drain()
        h.expectOneResultEach(3)
        #expect(h.answeredCount() == 3)
    }

    @Test(arguments: [1, 2, 3])
    func reconnectFailingFewerThanFourTimesStillDelivers(_ failures: Int) {
        var h = Harness(items: 50)
        h.settle()
        h.answer([1])
        h.connectOutcomes = Array(repeating: .connect(.connect(host: "h", port: 1, reason: "Connection refused")), count: failures)
        h.end(.reset)
        h.drain()
        h.expectOneResultEach(50)
        #expect(h.answeredCount() == 50)
        #expect(h.connectAttempts == 2 + failures)
    }

    @Test func reconnectFailingFourTimesGivesUp() {
        var h = Harness(items: 50)
        h.settle()
        h.answer([1])
        h.connectOutcomes = Array(repeating: .connect(.connect(host: "h", port: 1, reason: "Connection refused")), count: 4)
        h.end(.reset)
        h.settle()
        #expect(h.finished)
        h.expectOneResultEach(50)
        #expect(h.answeredCount() == 1)
        #expect(h.connectAttempts == 5)
        guard case .gaveUp(let attempts, let last)? = h.machine.firstFailure else {
            Issue.record("expected gaveUp, got \(String(describing: h.machine.firstFailure))")
            return
        }
        #expect(attempts == 5 && last.description.contains("Connection refused") && last.advice == .checkServerAndEndpoint)
    }

    @Test func droppedWithoutAnAnswerFourTimesGivesUpAfterTheFirstPlusThree() {
        var h = Harness(items: 5)
        for _ in 0..<4 {
            h.settle()
            #expect(!h.finished)
            h.end(.reset)
        }
        h.settle()
        #expect(h.finished)
        #expect(h.connectAttempts == 4)
        h.expectOneResultEach(5)
        #expect(h.failures().count == 5)
    }

    @Test func progressResetsTheCountOfFruitlessConnections() {
        var h = Harness(items: 40)
        for round in 0..<8 {
            h.settle()
            if round % 3 == 2 { h.answer([h.open[0]]) }  // one answer every third connection
            h.end(.eofWithoutCloseNotify)
        }
        h.drain()
        h.expectOneResultEach(40)
        #expect(h.answeredCount() == 40)
    }

    @Test func theFirstConnectionFailingIsFinal() {
        var h = Harness(items: 4)
        h.connectOutcomes = [.connect(.resolve(host: "nowhere.invalid", reason: "Name or service not known"))]
        h.settle()
        #expect(h.finished)
        #expect(h.connectAttempts == 1)
        h.expectOneResultEach(4)
    }

    @Test func aTLSAlertBeforeAnyAnswerIsARefusalNotADrop() {
        var h = Harness(items: 3)
        h.settle()
        h.end(.alert("tlsv13 alert certificate required"))
        h.settle()
        #expect(h.finished && h.connectAttempts == 1)
        h.expectOneResultEach(3)
        #expect(h.machine.firstFailure?.description.contains("certificate required") == true)
    }

    @Test func aStreamResetOnEveryTryFailsThatItemOnly() {
        var h = Harness(items: 3)
        h.settle()
        for _ in 0..<4 {
            guard let id = h.streams.first(where: { $0.value == 1 })?.key else { break }
            h.streams[id] = nil
            h.machine.streamReset(streamID: id, errorCode: 2, now: h.now)
            h.answer(h.open.filter { h.streams[$0] != 1 })
            h.settle()
        }
        h.drain()
        h.expectOneResultEach(3)
        #expect(h.submissions[1] == 4)
        guard case .failed(.streamReset(let times, let code), _)? = h.results[1]?.first else {
            Issue.record("item 1: \(String(describing: h.results[1]))")
            return
        }
        #expect(times == 4 && code == 2)
    }

    @Test func interruptWithStreamsInFlightWaitsTwoSecondsThenReportsTheSentOnes() {
        var h = Harness(items: 5000, policy: .init(timeoutNs: 30_000_000_000))
        h.settle()
        #expect(h.open.count == 1000)
        h.machine.interrupted(signal: 2, now: h.now)
        h.answer(Array(h.open.prefix(400)))
        h.settle()
        #expect(h.open.count == 600, "nothing new after an interrupt")
        h.advance(seconds: 1.0)
        h.settle()
        #expect(!h.finished)
        h.advance(seconds: 1.1)
        h.settle()
        #expect(h.finished)
        #expect(h.results.count == 1000, "one result per sent item, none for the 4000 never sent")
        #expect(h.results.values.allSatisfy { $0.count == 1 })
        #expect(h.answeredCount() == 400)
        #expect(h.failures().allSatisfy { if case .interrupted = $0 { return true } else { return false } })
        #expect(h.machine.interruptedBy == 2)
        #expect(h.machine.reported == 1000)
    }

    @Test func interruptFinishesAsSoonAsTheLastAnswerArrives() {
        var h = Harness(items: 5000)
        h.settle()
        h.machine.interrupted(signal: 15, now: h.now)
        h.answerAll()
        h.settle()
        #expect(h.finished && h.results.count == 1000 && h.failures().isEmpty)
        #expect(!h.connected)
    }

    @Test func interruptReportsSentItemsWaitingForAResend() {
        var h = Harness(items: 10)
        h.settle()
        h.answer([1, 3])
        h.end(.reset)                       // 8 sent, unanswered, queued again
        h.machine.interrupted(signal: 2, now: h.now)
        h.settle()
        #expect(h.finished)
        h.expectOneResultEach(10)
        #expect(h.failures().count == 8)
        #expect(h.connectAttempts == 1, "no reconnect after an interrupt")
    }

    @Test func interruptBeforeAnythingWasSentReportsNothing() {
        var h = Harness(items: 10)
        h.machine.interrupted(signal: 2, now: 0)
        h.settle()
        #expect(h.finished && h.results.isEmpty && h.connectAttempts == 0)
    }

    @Test func submitRefusedPutsTheItemBackAndMovesOn() {
        var h = Harness(items: 3)
        guard case .connect = h.machine.nextAction(now: 0) else { Issue.record("expected connect"); return }
        h.machine.connected(now: 0)
        guard case .submit(let item) = h.machine.nextAction(now: 0) else { Issue.record("expected submit"); return }
        h.machine.submitRefused()
        guard case .close = h.machine.nextAction(now: 0) else { Issue.record("expected close"); return }
        h.drain()
        h.expectOneResultEach(3)
        #expect(h.submissions[item] == 1)
    }
}
