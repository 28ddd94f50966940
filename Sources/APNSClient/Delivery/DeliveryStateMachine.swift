import APNSPlatform
/// The sender's rules with no I/O in them: what to submit next, what an answer, a reset, a GOAWAY or
/// the end of a connection means for each request, when to reconnect, when to give up, and what an
/// interrupt leaves behind.
///
/// The driver (`PushSender`) asks `nextAction(now:)` what to do and reports what happened through the
/// event methods. Everything here is plain values, so every fault sequence is tested in microseconds
/// without a socket (as swift-nio-http2 tests its state machines). The guarantees it keeps:
/// - every item ends with exactly one `.report`, unless an interrupt leaves it never sent;
/// - an item whose stream was answered is never submitted again, whatever the answer;
/// - a connection that ends is only reported (by the driver) after every frame that arrived on it was
///   processed, so answers waiting in the socket are never mistaken for lost ones.
struct DeliveryStateMachine<Item, Answer> {
    /// What the driver does next.
    enum Action {
        /// Open connection number `attempt` (1-based); report `connected` or `connectFailed`.
        case connect(attempt: Int)
        /// Submit `item` on the open connection; report `submitted(streamID:)` or `submitRefused`.
        case submit(Item)
        /// Hand `item`'s one and only result to the user.
        case report(Item, Report)
        /// Move bytes until something happens or `deadline` (monotonic ns) passes, then call `tick`.
        case wait(deadline: UInt64)
        /// Close the open connection gracefully (GOAWAY, close_notify) and forget it.
        case close
        /// Nothing more to do.
        case finish
    }

    /// An item's result.
    enum Report {
        /// The server answered (any status): final.
        case answered(Answer, durationNs: UInt64)
        /// No answer, and none will come.
        case failed(TransportFailure, durationNs: UInt64)
    }

    /// Limits, from CLI.md.
    struct Policy {
        /// `--timeout`: how long to wait for the next answer while requests are in flight.
        var timeoutNs: UInt64
        /// `--concurrency`; nil: the server's limit.
        var concurrency: Int? = nil
        /// The ceiling whatever the server allows.
        var maximumConcurrency = 1000
        /// Connections in a row that end (or fail to open) without a single answer before giving up.
        var reconnectsWithoutProgress = 3
        /// Resets of one item's stream on live connections before it fails.
        var attemptsPerItem = 4
        /// After an interrupt, how long answers in flight are still awaited.
        var interruptGraceNs: UInt64 = 2_000_000_000
    }

    private enum ConnectionPhase { case none, connecting, open, finished }

    private struct Pending {
        let item: Item
        /// Resets of its stream on live connections.
        var resets = 0
        /// Whether it was ever submitted (an interrupt reports sent items and counts the others).
        var sent = false
    }

    private struct InFlight {
        var pending: Pending
        let startNs: UInt64
    }

    private let policy: Policy
    private let source: () -> Item?

    // The queue: items to send again first, then the source (pulled only when a stream is free).
    private var retry = FIFO<Pending>()
    private var sourceExhausted = false

    // The connection.
    private var phase = ConnectionPhase.none
    private var inFlight: [Int32: InFlight] = [:]
    private var limit = 1
    private var goAwayLastStream: Int32? = nil
    private var goAwayNote: String? = nil
    private var writable = true
    private var acceptsStreams = true
    private var answeredHere = 0
    private var awaitingSubmit: Pending? = nil
    private var lastProgressNs: UInt64 = 0
    private var closeRequested = false

    // The run.
    private var outbox = FIFO<Action>()
    private var everConnected = false
    private var withoutProgress = 0
    private var interruptDeadline: UInt64? = nil

    /// Connections opened or attempted.
    private(set) var connectionAttempts = 0
    /// The signal that interrupted the run, if any.
    private(set) var interruptedBy: Int32? = nil
    /// The first failure that left items without an answer, for the summary and the exit message.
    private(set) var firstFailure: TransportFailure? = nil
    /// Items reported so far. After an interrupt, the caller's total minus this is how many were never sent.
    private(set) var reported = 0

    /// A machine sending every item `source` yields.
    init(policy: Policy, source: @escaping () -> Item?) {
        self.policy = policy
        self.source = source
    }

    // MARK: - What to do next

    /// The next action. Reports come first, in the order they were decided.
    mutating func nextAction(now: UInt64) -> Action {
        if let action = outbox.popFirst() { return action }
        switch phase {
        case .finished:
            return .finish
        case .connecting:
            // The driver reports the outcome of `.connect` before asking again; waiting is harmless.
            return .wait(deadline: now)
        case .none:
            if interruptedBy != nil || !hasPending() {
                finishRun()
                return nextAction(now: now)
            }
            phase = .connecting
            connectionAttempts += 1
            return .connect(attempt: connectionAttempts)
        case .open:
            return nextOnOpenConnection(now: now)
        }
    }

    private mutating func nextOnOpenConnection(now: UInt64) -> Action {
        if closeRequested {
            closeRequested = false
            endConnection(why: nil, now: now)
            return .close
        }
        let mayStart = writable && acceptsStreams && goAwayLastStream == nil && interruptedBy == nil
        if mayStart && inFlight.count < limit && awaitingSubmit == nil, let p = takePending() {
            awaitingSubmit = p
            return .submit(p.item)
        }
        if inFlight.isEmpty && awaitingSubmit == nil {
            // Nothing to wait for: done, or this connection can carry no more.
            endConnection(why: mayStart ? nil : stoppedReason(), now: now)
            return .close
        }
        var deadline = lastProgressNs + policy.timeoutNs
        if let d = interruptDeadline { deadline = min(deadline, d) }
        return .wait(deadline: deadline)
    }

    /// Why a live connection stopped taking requests (for the give-up message).
    private func stoppedReason() -> TransportFailure? {
        if let note = goAwayNote { return .closed(note) }
        if !writable { return .closed("writing to the server failed") }
        if !acceptsStreams { return .closed("the HTTP/2 session ran out of stream ids") }
        return nil
    }

    // MARK: - Events from the driver

    /// The connection is open (TCP, TLS and ALPN done); until the server's SETTINGS, one stream.
    mutating func connected(now: UInt64) {
        phase = .open
        everConnected = true
        inFlight.removeAll(keepingCapacity: true)
        limit = 1
        goAwayLastStream = nil
        goAwayNote = nil
        writable = true
        acceptsStreams = true
        answeredHere = 0
        closeRequested = false
        lastProgressNs = now
    }

    /// Opening a connection failed (DNS, TCP, TLS, ALPN). The first connection's failure is final
    /// (the endpoint or the credentials are wrong); a failed reconnect counts as a try without progress.
    mutating func connectFailed(_ failure: TransportFailure, now: UInt64) {
        phase = .none
        if !everConnected || !failure.isRetriable {
            failEverything(failure, now: now)
            return
        }
        withoutProgress += 1
        if withoutProgress > policy.reconnectsWithoutProgress {
            failEverything(.gaveUp(attempts: connectionAttempts, last: failure), now: now)
        }
    }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS, first or changed (APNs lowers it to 1 after a rejection).
    mutating func settingsReceived(maxConcurrentStreams: UInt32) {
        let server = Int(min(maxConcurrentStreams, UInt32(policy.maximumConcurrency)))
        let wanted = min(policy.concurrency ?? policy.maximumConcurrency, policy.maximumConcurrency)
        limit = max(1, min(server, wanted))
    }

    /// The item of the last `.submit` went out as `streamID`.
    mutating func submitted(streamID: Int32, now: UInt64) {
        guard var p = awaitingSubmit else { return }
        awaitingSubmit = nil
        p.sent = true
        if inFlight.isEmpty { lastProgressNs = now }
        inFlight[streamID] = InFlight(pending: p, startNs: now)
    }

    /// The HTTP/2 layer would not take the last `.submit` (stream ids exhausted, session closing):
    /// the item goes back first in line and this connection takes no more.
    mutating func submitRefused() {
        guard let p = awaitingSubmit else { return }
        awaitingSubmit = nil
        requeue(p)
        acceptsStreams = false
    }

    /// A stream ended with a `:status`: final, whatever the status.
    mutating func answered(streamID: Int32, _ answer: Answer, now: UInt64) {
        guard let f = inFlight.removeValue(forKey: streamID) else { return }
        answeredHere += 1
        lastProgressNs = now
        report(f.pending.item, .answered(answer, durationNs: now &- f.startNs))
    }

    /// A stream ended without an answer (RST_STREAM, or refused). Not processed by the server, so it
    /// is sent again; a live connection that keeps resetting one item fails it after `attemptsPerItem`.
    mutating func streamReset(streamID: Int32, errorCode: UInt32, now: UInt64) {
        guard var f = inFlight.removeValue(forKey: streamID) else { return }
        lastProgressNs = now
        if let last = goAwayLastStream, streamID > last {
            requeue(f.pending)  // refused by GOAWAY: never processed, costs no attempt
            return
        }
        f.pending.resets += 1
        if f.pending.resets >= policy.attemptsPerItem {
            let failure = TransportFailure.streamReset(times: f.pending.resets, code: errorCode)
            noteFailure(failure)
            report(f.pending.item, .failed(failure, durationNs: now &- f.startNs))
            return
        }
        requeue(f.pending)
    }

    /// GOAWAY: no new streams here. Streams above `lastStreamID` were not processed and go back in the
    /// queue now; those at or below it may still be answered, so they are awaited.
    mutating func goAwayReceived(lastStreamID: Int32, note: String) {
        goAwayLastStream = min(lastStreamID, goAwayLastStream ?? Int32.max)
        goAwayNote = note
        let refused = inFlight.keys.filter { $0 > lastStreamID }.sorted()
        for id in refused {
            if let f = inFlight.removeValue(forKey: id) { requeue(f.pending) }
        }
    }

    /// A write failed (EPIPE, reset): submit nothing more here. The driver keeps reading; the answers
    /// already on their way are still taken, and the end of the connection follows.
    mutating func writeFailed() {
        writable = false
    }

    /// The connection ended, and the driver has processed every frame that arrived on it. Unanswered
    /// items go back in the queue; a connection that answered nothing counts as a try without progress.
    mutating func connectionEnded(_ end: ConnectionEnd, now: UInt64) {
        guard phase == .open else { return }
        if end.isRefusal && answeredHere == 0 {
            // The server refused us (a TLS alert such as "certificate required"): another connection
            // would be refused the same way.
            let failure = TransportFailure.closed(end.description(afterGoAway: goAwayNote))
            failInFlight(failure, now: now)
            phase = .none
            failEverything(failure, now: now)
            return
        }
        endConnection(why: .closed(end.description(afterGoAway: goAwayNote)), now: now)
    }

    /// Time passed (the wait's deadline, or any wake-up): enforces `--timeout` and the interrupt grace.
    mutating func tick(now: UInt64) {
        guard phase == .open, !inFlight.isEmpty || awaitingSubmit != nil else { return }
        if let d = interruptDeadline, now >= d {
            failInFlight(.interrupted, now: now)
            closeRequested = true
            return
        }
        if now >= lastProgressNs &+ policy.timeoutNs {
            // A silent server: another connection would wait as long again. Everything left fails.
            let failure = TransportFailure.timeout(seconds: Double(policy.timeoutNs) / 1e9)
            failInFlight(failure, now: now)
            closeRequested = true
            failQueued(failure)
        }
    }

    /// SIGINT or SIGTERM: start nothing new, give the answers in flight `interruptGraceNs`, then report
    /// every sent item (unanswered ones as interrupted). Later signals change nothing here.
    mutating func interrupted(signal: Int32, now: UInt64) {
        guard interruptedBy == nil else { return }
        interruptedBy = signal
        interruptDeadline = now &+ policy.interruptGraceNs
    }

    /// A `.connect` was given up because a signal arrived (report `interrupted` first).
    mutating func connectAbandoned() {
        if phase == .connecting { phase = .none }
    }

    /// Streams in flight (for `--verbose`).
    var inFlightCount: Int { inFlight.count }

    /// Answers on the current connection (for `--verbose`).
    var answeredOnConnection: Int { answeredHere }

    /// The item in flight on `streamID` (for `--verbose`).
    func job(onStream streamID: Int32) -> Item? { inFlight[streamID]?.pending.item }

    /// Milliseconds since `streamID` was submitted (for `--verbose`).
    func elapsedMs(onStream streamID: Int32, now: UInt64) -> Double {
        guard let f = inFlight[streamID] else { return 0 }
        return Double(now &- f.startNs) / 1e6
    }

    // MARK: - Internals

    private mutating func endConnection(why: TransportFailure?, now: UInt64) {
        // Unanswered streams go back first, in the order they were sent.
        for id in inFlight.keys.sorted() {
            if let f = inFlight[id] { requeue(f.pending) }
        }
        inFlight.removeAll(keepingCapacity: true)
        if let p = awaitingSubmit { requeue(p); awaitingSubmit = nil }
        phase = .none
        if answeredHere > 0 {
            withoutProgress = 0
        } else if let why {
            withoutProgress += 1
            if withoutProgress > policy.reconnectsWithoutProgress {
                failEverything(.gaveUp(attempts: connectionAttempts, last: why), now: now)
            }
        }
        if interruptedBy != nil { finishRun() }
    }

    private mutating func report(_ item: Item, _ r: Report) {
        reported += 1
        outbox.append(.report(item, r))
    }

    private mutating func noteFailure(_ f: TransportFailure) {
        if firstFailure == nil { firstFailure = f }
    }

    private mutating func failInFlight(_ failure: TransportFailure, now: UInt64) {
        if !inFlight.isEmpty { noteFailure(failure) }
        for id in inFlight.keys.sorted() {
            if let f = inFlight[id] { report(f.pending.item, .failed(failure, durationNs: now &- f.startNs)) }
        }
        inFlight.removeAll(keepingCapacity: true)
    }

    /// Every item not yet answered fails: the queue and the rest of the source.
    private mutating func failEverything(_ failure: TransportFailure, now: UInt64) {
        failInFlight(failure, now: now)
        failQueued(failure)
        phase = .finished
    }

    private mutating func failQueued(_ failure: TransportFailure) {
        var any = false
        if let p = awaitingSubmit { awaitingSubmit = nil; requeue(p) }
        while let p = takePending() {
            any = true
            report(p.item, .failed(failure, durationNs: 0))
        }
        if any { noteFailure(failure) }
    }

    /// The end of an interrupted or completed run: sent-but-unanswered items still queued are reported
    /// as interrupted; items never sent are left to the caller's count.
    private mutating func finishRun() {
        if interruptedBy != nil {
            while let p = retry.popFirst() {
                guard p.sent else { continue }
                noteFailure(.interrupted)
                report(p.item, .failed(.interrupted, durationNs: 0))
            }
        }
        phase = .finished
    }

    private mutating func requeue(_ p: Pending) {
        retry.append(p)
    }

    private mutating func hasPending() -> Bool {
        if !retry.isEmpty { return true }
        if sourceExhausted { return false }
        if let item = source() {
            retry.append(Pending(item: item))
            return true
        }
        sourceExhausted = true
        return false
    }

    private mutating func takePending() -> Pending? {
        guard hasPending() else { return nil }
        return retry.popFirst()
    }
}
