import Testing

@testable import APNSClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sender's rules without sockets: fault sequences as tables of events, each checked for the promises
/// of CLI.md — every item ends with exactly one result, nothing answered is sent again, and nothing the
/// server may have processed is sent again unless `resendUnknown` asks for it (RFC 9113 §8.7).
@Suite struct DeliveryStateMachineTests {
    typealias Machine = DeliveryStateMachine<Int, Int>

    /// Drives the machine as the real driver does, playing a scripted server.
    struct Harness {
        var machine: Machine
        var now: UInt64 = 0
        /// Item → its results (must end with exactly one).
        var results: [Int: [Machine.Report]] = [:]
        /// Item → times its request went out, as its result says.
        var reportedSends: [Int: Int] = [:]
        /// Items reported as sent again after an unknown outcome.
        var resentAfterUnknown: Set<Int> = []
        /// Item → times submitted.
        var submissions: [Int: Int] = [:]
        /// Items the server may have processed (their request was completely written): submitting one
        /// again is a possible duplicate push.
        var mayHaveProcessed: Set<Int> = []
        var duplicates: [Int] = []
        /// Connection → stream → item.
        var streams: [Int: [Int32: Int]] = [:]
        var nextStream: [Int: Int32] = [:]
        /// Connections open, oldest first.
        var connections: [Int] = []
        var connectAttempts = 0
        /// When each connection was asked for.
        var connectTimes: [UInt64] = []
        var finished = false
        /// The deadline of the last `.wait`.
        var waitDeadline: UInt64 = 0
        /// What `.connect` does: nil connects, a failure fails.
        var connectOutcomes: [TransportFailure?] = []
        /// Whether a submitted request is completely written at once (the usual case on a live socket).
        var writeOnSubmit = true

        init(items: Int, policy: Machine.Policy = .init(timeoutNs: 30_000_000_000), settings: UInt32? = 1000) {
            machine = Machine(policy: policy)
            self.items = items
            self.settings = settings
        }

        let settings: UInt32?
        /// Items 0..<items, pulled in order.
        let items: Int
        var nextItem = 0

        /// The newest open connection.
        var current: Int { connections.last ?? 0 }
        var connected: Bool { !connections.isEmpty }

        /// A signal the driver takes instead of the first item it is asked for after the run gave up (it was
        /// waiting for a slow device list when the signal came).
        var signalOnAPullAfterGivingUp: Int32? = nil

        /// Hands the machine the next item, as the driver does on `.pull`.
        mutating func pull() {
            if let signal = signalOnAPullAfterGivingUp, machine.firstFailure != nil {
                signalOnAPullAfterGivingUp = nil
                machine.interrupted(signal: signal, now: now)
                return
            }
            machine.pulled(nextItem < items ? nextItem : nil)
            nextItem = min(nextItem + 1, items)
        }

        /// The next action other than `.pull` (pulls are answered on the way).
        mutating func nextAction() -> Machine.Action {
            while true {
                let action = machine.nextAction(now: now)
                guard case .pull = action else { return action }
                pull()
            }
        }

        /// Runs actions until the machine waits or finishes.
        mutating func settle() {
            while true {
                switch machine.nextAction(now: now) {
                case .pull:
                    pull()
                case .connect(let id):
                    connectAttempts += 1
                    connectTimes.append(now)
                    let outcome = connectOutcomes.isEmpty ? nil : connectOutcomes.removeFirst()
                    if let failure = outcome {
                        machine.connectFailed(id, failure, now: now)
                    } else {
                        connections.append(id)
                        streams[id] = [:]
                        nextStream[id] = 1
                        machine.connected(id, now: now)
                        if let settings { machine.settingsReceived(id, maxConcurrentStreams: settings) }
                    }
                case .submit(let item, let id):
                    submissions[item, default: 0] += 1
                    if mayHaveProcessed.contains(item) { duplicates.append(item) }
                    let stream = nextStream[id, default: 1]
                    streams[id, default: [:]][stream] = item
                    machine.submitted(id, streamID: stream, now: now)
                    nextStream[id] = stream + 2
                    if writeOnSubmit { write(stream, on: id) }
                case .report(let item, let report, let sends, let resent):
                    results[item, default: []].append(report)
                    reportedSends[item] = sends
                    if resent { resentAfterUnknown.insert(item) }
                case .wait(let deadline):
                    waitDeadline = deadline
                    return
                case .close(let id):
                    connections.removeAll { $0 == id }
                    streams[id] = nil
                case .finish:
                    finished = true
                    return
                }
            }
        }

        /// The request on `stream` left completely (END_STREAM written).
        mutating func write(_ stream: Int32, on id: Int? = nil) {
            let id = id ?? current
            if let item = streams[id]?[stream] { mayHaveProcessed.insert(item) }
            machine.requestWritten(id, streamID: stream)
        }

        /// The server answers these streams (status 200).
        mutating func answer(_ ids: [Int32], on connection: Int? = nil, status: Int = 200) {
            let id = connection ?? current
            for stream in ids {
                guard let item = streams[id]?.removeValue(forKey: stream) else { continue }
                mayHaveProcessed.insert(item)
                machine.answered(id, streamID: stream, status, now: now)
            }
        }

        /// The server answers every open stream on every connection.
        mutating func answerAll() {
            for id in connections { answer(open(on: id), on: id) }
        }

        /// Streams open on `connection` (default: the newest), in order.
        func open(on connection: Int? = nil) -> [Int32] { (streams[connection ?? current] ?? [:]).keys.sorted() }
        var open: [Int32] { open() }

        mutating func goAway(last: Int32, on connection: Int? = nil, reason: String? = nil) {
            let id = connection ?? current
            machine.goAwayReceived(id, lastStreamID: last, GoAwayNotice(errorCode: 0, explanation: reason))
            // nghttp2 then closes the streams above `last` as refused. The server says it did not process
            // them, so sending them again is no duplicate.
            for stream in open(on: id) where stream > last {
                if let item = streams[id]?[stream] { mayHaveProcessed.remove(item) }
                streams[id]?[stream] = nil
                machine.streamReset(id, streamID: stream, errorCode: 7, now: now)
            }
        }

        mutating func reset(_ stream: Int32, code: UInt32, on connection: Int? = nil) {
            let id = connection ?? current
            if code == 7, let item = streams[id]?[stream] { mayHaveProcessed.remove(item) }  // REFUSED_STREAM
            streams[id]?[stream] = nil
            machine.streamReset(id, streamID: stream, errorCode: code, now: now)
        }

        mutating func end(_ how: ConnectionEnd, on connection: Int? = nil) {
            let id = connection ?? current
            machine.connectionEnded(id, how, now: now)
            connections.removeAll { $0 == id }
            streams[id] = nil
        }

        mutating func advance(seconds: Double) {
            now += UInt64(seconds * 1e9)
            machine.tick(now: now)
        }

        /// Answers everything on every connection until the machine finishes; waits out backoffs.
        mutating func drain(maxTurns: Int = 10_000) {
            var turns = 0
            settle()
            while !finished && turns < maxTurns {
                if streams.values.allSatisfy(\.isEmpty) && waitDeadline > now {
                    now = waitDeadline
                    machine.tick(now: now)
                }
                answerAll()
                settle()
                turns += 1
            }
        }

        /// The promises: one result per item, nothing possibly processed sent again.
        func expectOneResultEach(_ items: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                duplicates.isEmpty, "possibly processed items sent again: \(duplicates.prefix(5))",
                sourceLocation: sourceLocation)
            #expect(
                results.count == items, "items with a result: \(results.count) of \(items)",
                sourceLocation: sourceLocation)
            let twice = results.filter { $0.value.count != 1 }.map(\.key)
            #expect(
                twice.isEmpty, "items with more than one result: \(twice.prefix(5))", sourceLocation: sourceLocation)
        }

        func answeredCount() -> Int {
            results.values.filter { if case .answered = $0.first { return true } else { return false } }.count
        }

        func failures() -> [TransportFailure] {
            results.values.compactMap { if case .failed(let f, _) = $0.first { return f } else { return nil } }
        }

        func unknownCount() -> Int { failures().filter(\.isUnknownOutcome).count }
    }

    static let refused = TransportFailure.connect(.connect(host: "h", port: 1, reason: "Connection refused"))

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
        h.machine.settingsReceived(h.current, maxConcurrentStreams: 4)
        h.settle()
        #expect(h.open.count == 4)
        h.machine.settingsReceived(h.current, maxConcurrentStreams: 1)  // APNs lowers the limit after a rejection
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

    // MARK: - The end of a connection, by the state of each stream

    /// Every way a connection can end, with streams answered, written and unanswered, and submitted but
    /// not yet written: the answered are final, the written are unknown (never resent), the unwritten
    /// are resent on the next connection, and the queued are sent there too.
    @Test(arguments: [
        ConnectionEnd.closedCleanly, .eofWithoutCloseNotify, .reset, .failed("reading failed: x"),
        .protocolError(.library(code: -505, operation: "reading from the server")), .sessionFinished,
    ])
    func connectionEndSettlesEachStreamByWhatTheServerCouldHaveSeen(_ end: ConnectionEnd) {
        var h = Harness(items: 1500)
        h.writeOnSubmit = false
        h.settle()
        #expect(h.open.count == 1000, "500 still queued")
        let streams = h.open
        for s in streams.prefix(600) { h.write(s) }  // 600 completely written
        h.answer(Array(streams.prefix(200)))  // 200 of them answered
        h.end(end)  // 400 written unanswered, 400 never complete
        h.writeOnSubmit = true
        h.drain()
        h.expectOneResultEach(1500)
        #expect(h.answeredCount() == 1100, "200 + 400 resent + 500 queued")
        #expect(h.unknownCount() == 400)
        #expect(h.connectAttempts == 2)
        #expect(
            h.failures().allSatisfy {
                $0.description.hasPrefix(
                    "unknown: the connection ended after the request was sent; APNs may have delivered it")
            })
        #expect(h.machine.firstFailure?.isUnknownOutcome == true)
    }

    @Test func resendUnknownSendsTheWrittenOnesAgain() {
        var h = Harness(items: 300, policy: .init(timeoutNs: 30_000_000_000, resendUnknown: true))
        h.settle()
        h.answer(Array(h.open.prefix(100)))
        h.end(.reset)
        h.drain()
        #expect(h.results.count == 300 && h.results.values.allSatisfy { $0.count == 1 })
        #expect(h.answeredCount() == 300)
        #expect((0..<100).allSatisfy { h.submissions[$0] == 1 }, "nothing answered is resent")
        #expect((100..<300).allSatisfy { h.submissions[$0] == 2 })
        #expect(h.resentAfterUnknown == Set(100..<300), "reported as sent again after the unknown outcome")
    }

    @Test func resendUnknownStillEndsAfterTheAttemptLimit() {
        var h = Harness(items: 3, policy: .init(timeoutNs: 30_000_000_000, resendUnknown: true))
        for _ in 0..<10 {
            h.settle()
            if h.finished { break }
            if !h.open.isEmpty { h.answer([h.open[0]]) }  // progress each time, so no give-up
            h.end(.reset)
        }
        h.drain()
        #expect(h.results.count == 3 && h.results.values.allSatisfy { $0.count == 1 })
        #expect(h.submissions.values.allSatisfy { $0 <= 4 })
    }

    /// With `resendUnknown`, a server that goes away for good after receiving: the resend cannot be made, and the
    /// device stays unknown, its failure naming the first outcome and why the resend failed (CLI.md).
    @Test func aResendThatCannotBeMadeLeavesTheDeviceUnknown() {
        var h = Harness(items: 5, policy: .init(timeoutNs: 30_000_000_000, resendUnknown: true))
        h.settle()
        h.answer([1])
        h.connectOutcomes = Array(repeating: Self.refused, count: 5)
        h.end(.reset)  // 4 written and unanswered: sent again, but nothing listens any more
        h.drain()
        #expect(h.finished)
        #expect(h.results.count == 5 && h.results.values.allSatisfy { $0.count == 1 })
        let failures = h.failures()
        #expect(failures.count == 4)
        #expect(failures.allSatisfy { $0.isUnknownOutcome }, "\(failures.map(\.description))")
        let text = failures.first?.description ?? ""
        #expect(text.hasPrefix("unknown: the connection ended after the request was sent; APNs may have delivered it"))
        #expect(text.contains("sending it again failed: no answer after 3 connections in a row"), "\(text)")
        #expect(text.contains("Connection refused"), "\(text)")
        // Queued again, but no connection carried it: not reported as sent again.
        #expect(h.resentAfterUnknown.isEmpty)
    }

    /// The result says how many times a request went out to a server that may have processed it: a refused
    /// stream or one above a GOAWAY's last-stream-id, sent again, is one send (a device refused a hundred times
    /// by closing connections was not sent a hundred times); an unknown outcome sent again is two.
    @Test func aDeviceSentTwiceSaysSo() {
        var h = Harness(items: 4)
        h.settle()
        h.reset(1, code: 7)
        h.goAway(last: 3)
        h.drain()
        h.expectOneResultEach(4)
        #expect(h.reportedSends == [0: 1, 1: 1, 2: 1, 3: 1])
        var again = Harness(items: 2, policy: .init(timeoutNs: 30_000_000_000, resendUnknown: true))
        again.settle()
        again.write(1)
        again.reset(1, code: 2)  // INTERNAL_ERROR after the request was written: unknown, so sent again
        again.drain()
        #expect(again.results.count == 2 && again.results.values.allSatisfy { $0.count == 1 })
        #expect(again.reportedSends == [0: 2, 1: 1])
    }

    // MARK: - Stream resets

    @Test func aRefusedStreamIsResentUpToTheLimitThenFails() {
        var h = Harness(items: 3)
        h.settle()
        for _ in 0..<4 {
            guard let id = h.streams[h.current]?.first(where: { $0.value == 1 })?.key else { break }
            h.reset(id, code: 7)  // REFUSED_STREAM: provably not processed
            h.answer(h.open.filter { h.streams[h.current]?[$0] != 1 })
            h.settle()
        }
        h.drain()
        #expect(h.results.count == 3)
        #expect(h.submissions[1] == 4)
        guard case .failed(.streamReset(let times, let code), _)? = h.results[1]?.first else {
            Issue.record("item 1: \(String(describing: h.results[1]))")
            return
        }
        #expect(times == 4 && code == 7)
    }

    @Test(arguments: [UInt32(0), 1, 2, 8, 0xdead])
    func anyOtherResetAfterTheRequestWasWrittenIsUnknown(_ code: UInt32) {
        var h = Harness(items: 3)
        h.settle()
        h.reset(h.open[1], code: code)
        h.drain()
        h.expectOneResultEach(3)
        #expect(h.submissions[1] == 1)
        #expect(h.unknownCount() == 1)
        #expect(h.failures().first?.description.contains("the server reset the stream") == true)
    }

    @Test func aResetBeforeTheRequestWasWrittenIsResent() {
        var h = Harness(items: 2)
        h.writeOnSubmit = false
        h.settle()
        h.reset(h.open[0], code: 2)
        h.writeOnSubmit = true
        h.drain()
        h.expectOneResultEach(2)
        #expect(h.answeredCount() == 2 && h.submissions[0] == 2)
    }

    // MARK: - GOAWAY: two connections

    @Test func goAwayOpensTheNextConnectionAtOnceWhileTheOldOneDrains() {
        var h = Harness(items: 20)
        h.settle()
        let first = h.current
        #expect(h.open.count == 20)
        h.answer([1, 3])
        h.goAway(last: 9)  // 11…39 were not processed: back in the queue; 5, 7, 9 may still be answered
        h.settle()
        #expect(h.connections.count == 2, "the next connection opened without waiting for the drain")
        #expect(h.open(on: first) == [5, 7, 9])
        #expect(h.open.count == 15, "the refused ones went out on the new connection")
        h.answer([5, 7, 9], on: first)
        h.settle()
        #expect(h.connections.count == 1, "the drained connection closed")
        h.drain()
        h.expectOneResultEach(20)
        #expect(h.answeredCount() == 20)
        #expect((0..<5).allSatisfy { h.submissions[$0] == 1 })
    }

    @Test func aGoAwayConnectionThatClosesBeforeAnsweringLeavesUnknowns() {
        var h = Harness(items: 10)
        h.settle()
        let first = h.current
        h.goAway(last: 3)  // ENHANCE_YOUR_CALM-like: streams 1 and 3 may have been processed
        h.settle()
        h.end(.closedCleanly, on: first)
        h.drain()
        h.expectOneResultEach(10)
        #expect(h.unknownCount() == 2)
        #expect(h.submissions[0] == 1 && h.submissions[1] == 1)
    }

    @Test func aSecondGoAwayWhileTheFirstDrainsOpensAThirdAndNoMore() {
        var h = Harness(items: 30)
        h.settle()
        let first = h.current
        h.goAway(last: 1, on: first)
        h.settle()
        let second = h.current
        h.goAway(last: 1, on: second)
        h.settle()
        #expect(h.connections.count == 3)
        let third = h.current
        h.goAway(last: 1, on: third)
        h.settle()
        #expect(h.connections.count == 3, "never a fourth connection at once")
        h.answer([1], on: first)
        h.settle()
        #expect(h.connections.count == 3 && !h.connections.contains(first))
        h.drain()
        h.expectOneResultEach(30)
    }

    @Test func afterAGoAwayASpareIsKeptReadySoTheNextGoAwayCostsNoHandshake() {
        var h = Harness(items: 100, settings: 10)
        h.settle()
        let first = h.current
        h.answer([1])
        h.goAway(last: 1, on: first)
        h.settle()
        let second = h.current
        #expect(h.connectAttempts == 2 && second != first)
        h.answer([h.open(on: second)[0]], on: second)
        h.settle()
        #expect(h.connectAttempts == 3, "a spare opens once the new connection works")
        let spare = h.current
        #expect(h.open(on: spare).isEmpty, "the spare carries nothing while the other one sends")
        h.goAway(last: 1, on: second)
        h.settle()
        #expect(!h.open(on: spare).isEmpty, "requests moved to the spare at once")
        #expect(h.connectAttempts == 3)
        h.answer([h.open(on: spare)[0]], on: spare)
        h.settle()
        #expect(h.connectAttempts == 4, "once it works, the next spare is on its way")
        h.drain()
        h.expectOneResultEach(100)
    }

    /// With no reason (nginx's `keepalive_requests`) or APNs' graceful `Shutdown`, which the mock's GOAWAY fault
    /// sends: the budget was learnt only without a reason, so every connection then had its extra requests refused.
    @Test(arguments: [nil, "Shutdown"])
    func aServerThatSendsGoAwayEveryNRequestsGetsNAtATimeAfterTheSecond(reason: String?) {
        var h = Harness(items: 1000, settings: 150)
        var submittedPer: [Int: Int] = [:]
        h.settle()
        let first = h.current
        h.answer(Array(h.open(on: first).prefix(100)), on: first)
        // Graceful, after 100 requests: maybe the server's budget per connection.
        h.goAway(last: 199, on: first, reason: reason)
        h.settle()
        // The second connection is not held to it (one GOAWAY may be a restart): it is sent more, and its GOAWAY
        // after the same 100 confirms the budget.
        let second = h.current
        #expect(second != first)
        h.answer(Array(h.open(on: second).prefix(100)), on: second)
        #expect(Int((h.nextStream[second] ?? 1) - 1) / 2 > 100, "one GOAWAY alone sets no budget")
        h.goAway(last: 199, on: second, reason: reason)
        var refusedAfterFirst = 0
        for _ in 0..<200 where !h.finished {
            h.settle()
            for id in h.connections where id != first && id != second {
                submittedPer[id] = max(submittedPer[id] ?? 0, Int((h.nextStream[id] ?? 1) - 1) / 2)
                let served = h.open(on: id)
                if submittedPer[id] ?? 0 >= 100 && !served.isEmpty {
                    h.answer(served, on: id)
                    h.goAway(last: 199, on: id, reason: reason)
                } else {
                    h.answer(served, on: id)
                }
            }
            refusedAfterFirst = h.submissions.filter { $0.value > 1 }.count
        }
        h.drain()
        h.expectOneResultEach(1000)
        #expect(
            submittedPer.values.allSatisfy { $0 <= 100 },
            "no connection after the second carries more than the budget: \(submittedPer)")
        #expect(
            refusedAfterFirst == 100,
            "only the first two connections' extra requests were refused and sent again: \(refusedAfterFirst)")
    }

    /// A graceful GOAWAY once (a server restarting), or one with APNs' reason (after a rejected token), is no
    /// budget: the next connection carries the rest of the batch, as one connection should.
    @Test(arguments: [nil, "Shutdown"])
    func oneGoAwayIsNoBudget(reason: String?) {
        var h = Harness(items: 1000, settings: 150)
        h.settle()
        let first = h.current
        h.answer(Array(h.open(on: first).prefix(100)), on: first)
        h.goAway(last: 199, on: first, reason: reason)
        var carried = 0
        for _ in 0..<300 where !h.finished {
            h.settle()
            for id in h.connections where id != first {
                carried = max(carried, Int((h.nextStream[id] ?? 1) - 1) / 2)
                h.answer(h.open(on: id), on: id)
            }
        }
        h.drain()
        h.expectOneResultEach(1000)
        #expect(carried == 900, "the second connection carried the rest: \(carried)")
    }

    /// GOAWAYs with another reason of APNs' (after a rejected token), even after the same count on two connections
    /// in a row: no budget, the third connection carries the rest.
    @Test func goAwaysWithAnotherReasonAreNoBudget() {
        var h = Harness(items: 1000, settings: 150)
        h.settle()
        var second = 0
        for _ in 0..<2 {
            second = h.current
            h.answer(Array(h.open(on: second).prefix(100)), on: second)
            h.goAway(last: 199, on: second, reason: "ExpiredProviderToken")
            h.settle()
        }
        var carried = 0
        for _ in 0..<300 where !h.finished {
            h.settle()
            for id in h.connections where id > second {
                carried = max(carried, Int((h.nextStream[id] ?? 1) - 1) / 2)
                h.answer(h.open(on: id), on: id)
            }
            for id in h.connections where id <= second { h.answer(h.open(on: id), on: id) }
        }
        h.drain()
        h.expectOneResultEach(1000)
        #expect(carried > 100, "a connection after the second carried more than 100: \(carried)")
    }

    @Test func aSpareThatCannotOpenCostsATryNotTheRun() {
        var h = Harness(items: 60, settings: 10)
        h.settle()
        h.answer([1])
        h.goAway(last: 1)
        h.settle()
        h.connectOutcomes = [.tls(.verification("certificate has expired"))]
        h.answer([h.open[0]])  // the new connection works: a spare is opened, and fails
        h.settle()
        #expect(!h.finished)
        h.drain()
        h.expectOneResultEach(60)
        #expect(h.answeredCount() == 60)
    }

    @Test func noSpareForAServerThatRefusesEverything() {
        var h = Harness(items: 3)
        for _ in 0..<10 where !h.finished {
            h.settle()
            if h.connected { h.goAway(last: 0) }
            h.settle()
            h.advance(seconds: 1)
        }
        h.settle()
        #expect(h.finished && h.connectAttempts == 4)
        h.expectOneResultEach(3)
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

    @Test func writeFailureWithAnswersStillReadable() {
        var h = Harness(items: 2000)
        h.settle()
        let first = h.current
        #expect(h.open.count == 1000)
        h.machine.writeFailed(first)
        h.answer(Array(h.open.prefix(300)))  // read after the failed write
        h.settle()
        #expect(h.open(on: first).count == 700, "no new request on a connection whose write failed")
        h.end(.reset, on: first)
        h.drain()
        h.expectOneResultEach(2000)
        #expect(h.unknownCount() == 700)
        #expect(h.answeredCount() == 1300)
    }

    // MARK: - Timeouts

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
        // The 1000 written may have been processed (a slow backend): unknown, not plain failures. The 500 queued
        // never left.
        let unknown = h.failures().filter { $0 == .unknownOutcome(.timeout(seconds: 2)) }
        #expect(unknown.count == 1000)
        #expect(h.failures().filter { $0 == .timeout(seconds: 2) }.count == 500)
        #expect(h.reportedSends.values.filter { $0 == 0 }.count == 500, "the never-sent say so")
        #expect(h.connectAttempts == 1)
    }

    /// A request not completely written when `--timeout` expires cannot have been processed: a plain timeout.
    @Test func aTimeoutLeavesUnwrittenRequestsPlainFailures() {
        var h = Harness(items: 10, policy: .init(timeoutNs: 2_000_000_000))
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.advance(seconds: 2.1)
        h.settle()
        h.expectOneResultEach(10)
        #expect(h.unknownCount() == 1)
        #expect(h.failures().filter { $0 == .timeout(seconds: 2) }.count == 9)
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

    // MARK: - Reconnecting and backoff

    @Test(arguments: [1, 2])
    func reconnectFailingFewerThanThreeTimesStillDelivers(_ failures: Int) {
        var h = Harness(items: 50)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.answer([1])
        h.connectOutcomes = [nil] + Array(repeating: Self.refused, count: failures)
        h.end(.reset)  // 49 never completely written
        h.connectOutcomes.removeFirst()
        h.writeOnSubmit = true
        h.drain()
        h.expectOneResultEach(50)
        #expect(h.answeredCount() == 50)
        #expect(h.connectAttempts == 2 + failures)
    }

    /// CLI.md: it gives up after 3 attempts in a row without progress, counting every attempt after the connection
    /// that ended, the first immediate reconnect included: 1 + 3 connections, and the message says 3.
    @Test func reconnectFailingThreeTimesGivesUpCountingOnlyThoseInTheMessage() {
        var h = Harness(items: 50)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.answer([1])
        h.connectOutcomes = Array(repeating: Self.refused, count: 4)
        h.end(.reset)
        h.drain()
        #expect(h.finished)
        h.expectOneResultEach(50)
        #expect(h.answeredCount() == 1)
        #expect(h.connectAttempts == 4)
        guard case .gaveUp(let attempts, let last)? = h.machine.firstFailure else {
            Issue.record("expected gaveUp, got \(String(describing: h.machine.firstFailure))")
            return
        }
        #expect(attempts == 3, "the first connection answered: it is not one of the fruitless ones")
        #expect(last.description.contains("Connection refused") && last.advice == .checkServerAndEndpoint)
    }

    /// After giving up, each item still in the source fails as it is pulled; once interrupted, no more is pulled
    /// (a device list from a pipe may never end) and the run finishes, those items without a result as in any
    /// interrupted run.
    @Test func anInterruptedRunThatGaveUpPullsNoMore() {
        var h = Harness(items: 50, settings: 2)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.answer([1])
        h.connectOutcomes = Array(repeating: Self.refused, count: 4)
        h.signalOnAPullAfterGivingUp = 15
        h.end(.reset)
        h.drain()
        #expect(h.finished)
        #expect(h.machine.interruptedBy == 15)
        #expect(h.nextItem < 50, "pulled \(h.nextItem) of 50")
        #expect(h.results.count == h.nextItem, "one result for each item pulled, none for the rest")
        #expect(h.results.values.allSatisfy { $0.count == 1 })
    }

    @Test func backoffWaitsAQuarterHalfAndOneSecondBeforeTheTries() {
        var h = Harness(items: 5)
        h.writeOnSubmit = false
        h.settle()
        h.connectOutcomes = [Self.refused, Self.refused, nil]
        h.end(.reset)  // no answer on it: the first fruitless connection
        h.settle()
        #expect(h.connectAttempts == 1 && h.waitDeadline == 250_000_000, "0.25 s before the first try")
        h.advance(seconds: 0.25)
        h.settle()
        #expect(h.connectAttempts == 2 && h.waitDeadline == 750_000_000, "then 0.5 s")
        h.advance(seconds: 0.5)
        h.settle()
        #expect(h.connectAttempts == 3 && h.waitDeadline == 1_750_000_000, "then 1 s")
        h.advance(seconds: 0.99)
        h.settle()
        #expect(h.connectAttempts == 3)
        h.advance(seconds: 0.01)
        h.writeOnSubmit = true
        h.drain()
        #expect(h.connectTimes == [0, 250_000_000, 750_000_000, 1_750_000_000])
        h.expectOneResultEach(5)
        #expect(h.answeredCount() == 5, "a server back within 2 s is bridged")
    }

    @Test func backoffNeverWaitsLongerThanTheTimeout() {
        var h = Harness(items: 1, policy: .init(timeoutNs: 100_000_000))
        h.writeOnSubmit = false
        h.settle()
        h.connectOutcomes = [Self.refused, Self.refused]
        h.end(.reset)
        h.settle()
        #expect(h.waitDeadline == 100_000_000)
    }

    @Test func aConnectionThatAnsweredReconnectsAtOnce() {
        var h = Harness(items: 5)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.answer([1])
        h.end(.reset)
        h.settle()
        #expect(h.connectAttempts == 2 && h.connectTimes == [0, 0])
    }

    @Test func droppedWithoutAnAnswerFourTimesGivesUpAfterTheFirstPlusThree() {
        var h = Harness(items: 5)
        h.writeOnSubmit = false
        for _ in 0..<4 {
            h.settle()
            #expect(!h.finished)
            h.end(.reset)
            h.settle()
            h.advance(seconds: 1)
        }
        h.settle()
        #expect(h.finished)
        #expect(h.connectAttempts == 4)
        h.expectOneResultEach(5)
        #expect(h.failures().count == 5)
    }

    @Test func progressResetsTheCountOfFruitlessConnections() {
        var h = Harness(items: 40)
        h.writeOnSubmit = false
        for round in 0..<8 {
            h.settle()
            h.advance(seconds: 1)
            h.settle()
            if round % 3 == 2, let s = h.open.first {
                h.write(s)
                h.answer([s])
            }  // one answer every third connection
            h.end(.eofWithoutCloseNotify)
        }
        h.writeOnSubmit = true
        h.drain()
        h.expectOneResultEach(40)
        #expect(h.answeredCount() == 40)
    }

    @Test func theFirstConnectionFailingIsFinal() {
        var h = Harness(items: 4)
        h.connectOutcomes = [.connect(.resolve(host: "nowhere.invalid", failure: .resolver(code: EAI_NONAME)))]
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

    // MARK: - Interrupts

    @Test func interruptWithStreamsInFlightWaitsTwoSecondsThenReportsTheSentOnes() {
        var h = Harness(items: 5000, policy: .init(timeoutNs: 30_000_000_000))
        h.settle()
        #expect(h.open.count == 1000)
        h.machine.interrupted(signal: 2, now: h.now)
        h.answer(Array(h.open.prefix(400)))
        h.settle()
        #expect(h.open.count == 600, "nothing new after an interrupt")
        #expect(h.machine.owedReports == 600)
        h.advance(seconds: 1.0)
        h.settle()
        #expect(!h.finished)
        h.advance(seconds: 1.1)
        h.settle()
        #expect(h.finished)
        #expect(h.results.count == 1000, "one result per sent item, none for the 4000 never sent")
        #expect(h.results.values.allSatisfy { $0.count == 1 })
        #expect(h.answeredCount() == 400)
        // Completely written, then the wait ended: APNs may have delivered them.
        #expect(h.failures().allSatisfy { $0 == .unknownOutcome(.interrupted) })
        #expect(h.machine.interruptedBy == 2)
        #expect(h.machine.reported == 1000)
        #expect(h.machine.owedReports == 0)
    }

    /// Requests not completely written when the interrupt's grace ends cannot have been processed: never sent,
    /// with no result (as the items still queued), not unknown; the one written is unknown.
    @Test func interruptLeavesUnwrittenRequestsNeverSentNotUnknown() {
        var h = Harness(items: 4)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.machine.interrupted(signal: 2, now: h.now)
        h.advance(seconds: 2.1)
        h.settle()
        #expect(h.finished)
        #expect(h.results.count == 1 && h.unknownCount() == 1)
        #expect(h.machine.leftUnsent.count == 3)
        #expect(h.machine.owedReports == 0)
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

    @Test func interruptDuringADrainReportsEveryConnectionsItems() {
        var h = Harness(items: 30)
        h.settle()
        let first = h.current
        h.goAway(last: 5, on: first)
        h.settle()
        #expect(h.connections.count == 2)
        h.machine.interrupted(signal: 2, now: h.now)
        h.advance(seconds: 2.1)
        h.settle()
        #expect(h.finished)
        h.expectOneResultEach(30)
    }

    @Test func interruptReportsSentItemsWaitingForAResend() {
        var h = Harness(items: 10)
        h.writeOnSubmit = false
        h.settle()
        h.write(1)
        h.write(3)
        h.answer([1, 3])
        h.end(.reset)  // 8 sent, never complete, queued again
        h.machine.interrupted(signal: 2, now: h.now)
        h.settle()
        #expect(h.finished)
        // The 8 never completely left, so the server cannot have processed them: never sent, no result.
        #expect(h.results.count == 2 && h.answeredCount() == 2)
        #expect(h.machine.leftUnsent.count == 8 && h.machine.owedReports == 0)
        #expect(h.connectAttempts == 1, "no reconnect after an interrupt")
    }

    /// Refused by a GOAWAY and queued again, then interrupted before a new connection carried them: never sent
    /// (no result, listed as left unsent), not "sent without an answer"; one refused every time and then failed
    /// says it was sent 0 times.
    @Test func refusedUnprocessedThenStoppedIsNeverSent() {
        var h = Harness(items: 10)
        h.settle()
        h.answer([1, 3])
        h.goAway(last: 3)
        h.machine.interrupted(signal: 2, now: h.now)
        h.settle()
        #expect(h.finished)
        #expect(h.results.count == 2 && h.answeredCount() == 2)
        #expect(h.machine.leftUnsent.count == 8 && h.machine.owedReports == 0)

        var refused = Harness(items: 1)
        for _ in 0..<4 {
            refused.settle()
            if refused.finished { break }
            for stream in refused.open { refused.reset(stream, code: 7) }
        }
        refused.drain()
        #expect(refused.results.count == 1 && refused.reportedSends == [0: 0])
    }

    @Test func interruptBeforeAnythingWasSentReportsNothing() {
        var h = Harness(items: 10)
        h.machine.interrupted(signal: 2, now: 0)
        h.settle()
        #expect(h.finished && h.results.isEmpty && h.connectAttempts == 0)
    }

    @Test func interruptDuringABackoffEndsAtOnce() {
        var h = Harness(items: 10)
        h.writeOnSubmit = false
        h.settle()
        h.end(.reset)
        h.settle()
        #expect(h.waitDeadline == 250_000_000)
        h.machine.interrupted(signal: 2, now: h.now)
        h.settle()
        #expect(h.finished && h.connectAttempts == 1)
        // None was completely written before the reset: never sent, so no result, and all left unsent.
        #expect(h.results.isEmpty && h.machine.leftUnsent.count == 10 && h.machine.owedReports == 0)
    }

    /// The source is read by the driver when the machine says `.pull`, and only for a free stream: a device
    /// list on a pipe is not read ahead of what the server takes.
    @Test func itemsArePulledOnlyForAFreeStream() {
        var h = Harness(items: 10, settings: 2)
        h.settle()
        #expect(h.nextItem == 2 && h.open.count == 2, "two streams, two items read")
        h.answer(h.open)
        h.settle()
        #expect(h.nextItem == 4 && h.open.count == 2)
        h.drain()
        h.expectOneResultEach(10)
    }

    @Test func submitRefusedPutsTheItemBackAndMovesOn() {
        var h = Harness(items: 3)
        guard case .connect(let id) = h.nextAction() else {
            Issue.record("expected connect")
            return
        }
        h.machine.connected(id, now: 0)
        guard case .submit(let item, _) = h.nextAction() else {
            Issue.record("expected submit")
            return
        }
        h.machine.submitRefused(id)
        h.connections = []
        h.drain()
        h.expectOneResultEach(3)
        #expect(h.submissions[item] == 1)
    }
}
