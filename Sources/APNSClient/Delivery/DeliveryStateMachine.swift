import APNSCore

/// The sender's rules with no I/O in them: what to submit next and on which connection, what an answer,
/// a reset, a GOAWAY or the end of a connection means for each request, when to reconnect and how long
/// to wait first, when to give up, and what an interrupt leaves behind.
///
/// The driver (`PushSender`) asks `nextAction(now:)` what to do and reports what happened through the
/// event methods, each naming the connection it happened on (a connection that received GOAWAY drains
/// while its successor already sends). Items arrive the same way: the driver reads its source when told
/// to `.pull`, so no file or pipe is read in here. Everything here is plain values, so every fault sequence is
/// tested in microseconds without a socket (as swift-nio-http2 tests its state machines).
///
/// The guarantees it keeps:
/// - every item ends with exactly one `.report`, unless an interrupt leaves it never sent;
/// - an item is sent again only when the server provably did not process it (RFC 9113 §8.7): its
///   stream is above a GOAWAY's last-stream-id, it was refused (`REFUSED_STREAM`), or its request never
///   completely left (no END_STREAM written). Anything else unanswered has an unknown outcome and is
///   reported as such, unless `Policy.resendUnknown` asks for at-least-once;
/// - an item whose stream was answered is never submitted again, whatever the answer;
/// - a connection that ends is only reported (by the driver) after every frame that arrived on it was
///   processed, so answers waiting in the socket are never mistaken for lost ones.
struct DeliveryStateMachine<Item, Answer> {
    /// What the driver does next.
    enum Action {
        /// Open connection `connection` (numbered from 1 in the order asked); report `connected` or
        /// `connectFailed` for it.
        case connect(connection: Int)
        /// Take the next item from the source (only when a decision needs it: a stream is free, or a
        /// connection is wanted) and report it with `pulled`, nil when the source has no more.
        case pull
        /// Submit `item` on `connection`; report `submitted(streamID:)` or `submitRefused`.
        case submit(Item, connection: Int)
        /// Hand `item`'s one and only result to the user; `sends`: how many times its request went out to a server
        /// that may have processed it (0: never; a refused stream or one above a GOAWAY's last-stream-id is no send);
        /// `resentAfterUnknown`: it was sent again after an unknown outcome (`resendUnknown`).
        case report(Item, Report, sends: Int, resentAfterUnknown: Bool)
        /// Move bytes on every open connection until something happens or `deadline` (monotonic ns)
        /// passes (with no connection open: sleep until then), then call `tick`.
        case wait(deadline: UInt64)
        /// Close `connection` gracefully (GOAWAY, close_notify) and forget it.
        case close(connection: Int)
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
        /// `--timeout`: how long to wait for the next answer while requests are in flight; also the
        /// ceiling of each backoff wait.
        var timeoutNs: UInt64
        /// `--concurrency`; nil: the server's limit.
        var concurrency: Int? = nil
        /// The ceiling whatever the server allows.
        var maximumConcurrency = SenderConfiguration.maximumConcurrency
        /// Connection attempts in a row without a single answer, after the connection that ended (the first
        /// immediate reconnect included), before giving up.
        var reconnectsWithoutProgress = 3
        /// Sends of one item whose stream was refused (or reset before its request was complete) on a live
        /// connection, before it fails.
        var attemptsPerItem = 4
        /// After an interrupt, how long answers in flight are still awaited.
        var interruptGraceNs: UInt64 = 2_000_000_000
        /// Send again what may have been processed (at least once, not at most once).
        var resendUnknown = false
        /// Waits before the tries that follow a connection without progress (each capped by `timeoutNs`).
        var backoffNs: [UInt64] = [250_000_000, 500_000_000, 1_000_000_000]
        /// After giving up, the items the source still holds are pulled, each failing at once; false for a source
        /// that may never end (a pipe such as `tail -f`): it is left unread, or the run would never end.
        var readsSourceAfterGivingUp = true
    }

    private struct Pending {
        let item: Item
        /// Sends of it that came back refused or unfinished (and, with `resendUnknown`, unknown).
        var resets = 0
        /// Whether it was ever submitted (an interrupt reports sent items and counts the others).
        var sent: Bool { sends > 0 }
        /// Times submitted.
        var sends = 0
        /// Of `sends`: those the server provably never processed (above a GOAWAY's last-stream-id, refused, or
        /// never completely written). A result counts only the others as sends, so a device refused a hundred
        /// times by closing connections is not said to have been sent a hundred times, and one the server never
        /// processed is never sent.
        var unprocessed = 0
        /// The sends the server may have processed: what the device's result says.
        var processedSends: Int { sends - unprocessed }
        /// Why an earlier send, completely written, got no answer, when `resendUnknown` sent it again: whatever
        /// happens to the resend, APNs may have delivered the first.
        var firstUnknown: UnansweredAfterSending? = nil
        /// `sends` when `firstUnknown` was set: more sends since are resends of an unknown outcome.
        var sendsAtFirstUnknown = 0
    }

    private struct InFlight {
        var pending: Pending
        let startNs: UInt64
        /// The frame carrying END_STREAM was written: from here on the server may have processed it.
        var written = false
    }

    /// One connection's state. At most three: one draining after GOAWAY, one sending, a spare.
    private struct Connection {
        let id: Int
        var phase = DeliveryConnectionPhase.connecting
        var inFlight: [Int32: InFlight] = [:]
        var limit = 1
        var answered = 0
        var awaitingSubmit: Pending? = nil
        var lastProgressNs: UInt64 = 0

        /// Requests submitted here, and how many the server serves on one connection (learnt from its GOAWAY).
        var submittedHere = 0
        var budget = Int.max

        var open: Bool { phase.isOpen }
        var closeRequested: Bool { phase.isClosing }

        /// Takes no new requests: GOAWAY, a failed write, no stream ids left, or the server's budget of
        /// requests per connection spent. It drains, then closes.
        var retiring: Bool { phase.retirement != nil || submittedHere >= budget }
        var idle: Bool { inFlight.isEmpty && awaitingSubmit == nil }

        /// Why it stopped taking requests (for the give-up message).
        var stoppedReason: ConnectionLoss? { phase.retirement?.loss }
    }

    private let policy: Policy

    // The queue: items to send again first, then the source (pulled only when a stream is free).
    private var retry = FIFO<Pending>()
    private var sourceExhausted = false

    // The connections, oldest first; the oldest that is open and not retiring takes new requests.
    private var connections: [Connection] = []
    /// The server has sent GOAWAY once: it will again (nginx and APNs do every N requests), so a spare
    /// connection is kept ready.
    private var goAwaySeen = false
    /// Requests the server serves on one connection before its graceful GOAWAY (nginx's keepalive_requests),
    /// learnt from two such GOAWAYs after the same count: later connections hand over to the spare after that
    /// many, so no request is sent only to be refused and sent again a round trip later.
    private var requestsPerConnection = Int.max
    /// The count the last graceful GOAWAY came after, waiting for a second to confirm it.
    private var goAwayServed: Int? = nil

    // The run.
    private var outbox = FIFO<Action>()
    private var finished = false
    private var everConnected = false
    private var withoutProgress = 0
    /// The current run of fruitless connections began with a connection that ended (rather than one that failed to
    /// open): that one is "the connection that ended", not one of the tries after it that CLI.md counts.
    private var rowBeganWithAnEnd = false
    private var notBeforeNs: UInt64 = 0
    private var interruptDeadline: UInt64? = nil
    /// Set when the run gave up: whatever would be queued again fails with it instead.
    private var terminalFailure: TransportFailure? = nil

    /// Connections opened or attempted.
    private(set) var connectionAttempts = 0
    /// The signal that interrupted the run, if any.
    private(set) var interruptedBy: Int32? = nil
    /// The first failure that left items without an answer, for the summary and the exit message.
    private(set) var firstFailure: TransportFailure? = nil
    /// Items reported so far. After an interrupt, the caller's total minus this is how many were never sent.
    private(set) var reported = 0
    /// Items sent at least once whose result is not reported yet (what a second signal would lose).
    private(set) var owedReports = 0
    /// Items taken from the source that an interrupt left never sent (they get no result; `--unsent` lists them).
    private(set) var leftUnsent: [Item] = []
    /// The run gave up with the source not read to its end (`Policy.readsSourceAfterGivingUp` off).
    var leftSourceUnread: Bool {
        terminalFailure != nil && !sourceExhausted && interruptedBy == nil && !policy.readsSourceAfterGivingUp
    }

    /// A machine sending every item the driver pulls.
    init(policy: Policy) {
        self.policy = policy
    }

    // MARK: - What to do next

    /// The next action. Reports come first, in the order they were decided.
    mutating func nextAction(now: UInt64) -> Action {
        if let action = outbox.popFirst() { return action }
        if finished { return .finish }
        // After giving up, every item the source still holds fails (each as it is pulled); once interrupted, those
        // not pulled get no result, as in any interrupted run (a list from a pipe may never end).
        if terminalFailure != nil && !sourceExhausted && interruptedBy == nil && policy.readsSourceAfterGivingUp {
            return .pull
        }
        // Connections that are done: ended by a rule, idle with nothing more for them to do, or still
        // connecting when nothing is left to send.
        for index in connections.indices {
            let c = connections[index]
            if !c.open {
                guard let done = noMoreWork() else { return .pull }
                if done {
                    connections.remove(at: index)
                    return .close(connection: c.id)
                }
                continue
            }
            if c.closeRequested {
                connections.remove(at: index)
                return .close(connection: c.id)
            }
            if c.idle {
                guard let done = c.retiring ? true : noMoreWork() else { return .pull }
                if done {
                    endConnection(at: index, why: c.retiring ? c.stoppedReason : nil, now: now)
                    return .close(connection: c.id)
                }
            }
        }
        // Requests go to the oldest connection that takes them; a spare waits its turn.
        if let index = connections.firstIndex(where: { !$0.retiring && !$0.closeRequested && $0.open }),
            mayTakeRequests(connections[index]),
            connections[index].inFlight.count < connections[index].limit
        {
            guard let pending = hasPending() else { return .pull }
            if pending, let p = retry.popFirst() {
                connections[index].awaitingSubmit = p
                return .submit(p.item, connection: connections[index].id)
            }
        }
        guard let wanted = wantsConnection() else { return .pull }
        if wanted {
            if now >= notBeforeNs {
                connectionAttempts += 1
                var c = Connection(id: connectionAttempts)
                c.budget = requestsPerConnection
                connections.append(c)
                return .connect(connection: connectionAttempts)
            }
        } else if connections.isEmpty {
            finishRun()
            return nextAction(now: now)
        }
        return .wait(deadline: nextDeadline(now: now))
    }

    /// Nothing is left for any connection to carry: interrupted, given up, or every item handed out
    /// (nil: only the source can tell).
    private func noMoreWork() -> Bool? {
        if interruptedBy != nil || terminalFailure != nil { return true }
        return hasPending().map { !$0 }
    }

    private func mayTakeRequests(_ c: Connection) -> Bool {
        c.open && !c.retiring && !c.closeRequested && c.awaitingSubmit == nil && interruptedBy == nil
            && terminalFailure == nil
    }

    /// A new connection is wanted: work is waiting and no connection (open or opening) can take it, or,
    /// once the server has sent GOAWAY, no spare is ready to take over at the next one (a new connection
    /// costs two or three round trips, during which the draining one takes nothing). Three at most:
    /// draining, sending, spare. Nil: only the source can tell.
    private func wantsConnection() -> Bool? {
        guard interruptedBy == nil, terminalFailure == nil, connections.count < 3 else { return false }
        let ready = connections.filter { !$0.retiring && !$0.closeRequested }
        // A spare only while the server works (the connection sending now has answered): a server that
        // refuses everything gets the backoff, not more connections.
        let spareWanted = goAwaySeen && withoutProgress == 0 && ready.contains { $0.open && $0.answered > 0 }
        if ready.count >= (spareWanted ? 2 : 1) { return false }
        return hasPending()
    }

    /// The earliest moment something is due: an answer's `--timeout`, the interrupt grace, a backoff.
    func nextDeadline(now: UInt64) -> UInt64 {
        var deadline = UInt64.max
        for c in connections where !c.idle { deadline = min(deadline, c.lastProgressNs &+ policy.timeoutNs) }
        if let d = interruptDeadline { deadline = min(deadline, d) }
        if notBeforeNs > now && wantsConnection() == true { deadline = min(deadline, notBeforeNs) }
        if deadline == UInt64.max { deadline = now &+ policy.timeoutNs }
        return deadline
    }

    // MARK: - Events from the driver

    /// The source's next item, as a `.pull` asked (nil: it has no more). After giving up, it fails at once.
    mutating func pulled(_ item: Item?) {
        guard let item else {
            sourceExhausted = true
            return
        }
        requeue(Pending(item: item))
    }

    /// `connection` is open (TCP, TLS and ALPN done); until the server's SETTINGS, one stream.
    mutating func connected(_ connection: Int, now: UInt64) {
        guard let i = index(of: connection) else { return }
        connections[i].phase.opened()
        connections[i].lastProgressNs = now
        everConnected = true
    }

    /// Opening `connection` failed (DNS, TCP, TLS, ALPN). The first connection's failure is final (the
    /// endpoint or the credentials are wrong); a failed reconnect counts as a try without progress.
    mutating func connectFailed(_ connection: Int, _ failure: TransportFailure, now: UInt64) {
        guard let i = index(of: connection) else { return }
        connections.remove(at: i)
        // Final when nothing ever connected, or when the failure would repeat and no connection is left
        // (a spare that cannot open costs a try, not the connection that works).
        if !everConnected || (!failure.isRetriable && !connections.contains(where: \.open)) {
            failEverything(failure)
            return
        }
        countFruitless(failure, now: now)
    }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS, first or changed (APNs lowers it to 1 after a rejection).
    mutating func settingsReceived(_ connection: Int, maxConcurrentStreams: UInt32) {
        guard let i = index(of: connection) else { return }
        let server = Int(min(maxConcurrentStreams, UInt32(policy.maximumConcurrency)))
        let wanted = min(policy.concurrency ?? policy.maximumConcurrency, policy.maximumConcurrency)
        connections[i].limit = max(1, min(server, wanted))
    }

    /// The item of the last `.submit` on `connection` went out as `streamID` (queued, not yet written).
    mutating func submitted(_ connection: Int, streamID: Int32, now: UInt64) {
        guard let i = index(of: connection), var p = connections[i].awaitingSubmit else { return }
        connections[i].awaitingSubmit = nil
        connections[i].submittedHere += 1
        if !p.sent { owedReports += 1 }
        p.sends += 1
        if connections[i].inFlight.isEmpty { connections[i].lastProgressNs = now }
        connections[i].inFlight[streamID] = InFlight(pending: p, startNs: now)
    }

    /// The HTTP/2 layer would not take the last `.submit` (stream ids exhausted, session closing):
    /// the item goes back first in line and this connection takes no more.
    mutating func submitRefused(_ connection: Int) {
        guard let i = index(of: connection), let p = connections[i].awaitingSubmit else { return }
        connections[i].awaitingSubmit = nil
        connections[i].phase.retire(.outOfStreamIDs)
        requeue(p)
    }

    /// The frame ending `streamID`'s request (END_STREAM) was written to the socket: the server may
    /// process it from now on, so without an answer its outcome is unknown.
    mutating func requestWritten(_ connection: Int, streamID: Int32) {
        guard let i = index(of: connection) else { return }
        connections[i].inFlight[streamID]?.written = true
    }

    /// A stream ended with a `:status`: final, whatever the status.
    mutating func answered(_ connection: Int, streamID: Int32, _ answer: Answer, now: UInt64) {
        guard let i = index(of: connection), let f = connections[i].inFlight.removeValue(forKey: streamID) else {
            return
        }
        connections[i].answered += 1
        connections[i].lastProgressNs = now
        withoutProgress = 0
        rowBeganWithAnEnd = false
        owedReports -= 1
        report(f.pending, .answered(answer, durationNs: now &- f.startNs))
    }

    /// A stream ended without an answer. Sent again only when the server provably did not process it:
    /// above a GOAWAY's last-stream-id (free), refused or reset before the request was complete (up to
    /// `attemptsPerItem` sends). Any other reset leaves the outcome unknown.
    mutating func streamReset(_ connection: Int, streamID: Int32, errorCode: UInt32, now: UInt64) {
        guard let i = index(of: connection), let f = connections[i].inFlight.removeValue(forKey: streamID) else {
            return
        }
        connections[i].lastProgressNs = now
        if let last = connections[i].phase.goAwayLastStream, streamID > last {
            requeueUnprocessed(f.pending)  // refused by GOAWAY: never processed, costs no attempt
            return
        }
        let refused = errorCode == Self.refusedStream || !f.written
        if refused || policy.resendUnknown {
            var p = f.pending
            p.resets += 1
            if refused { p.unprocessed += 1 }
            if !refused && p.firstUnknown == nil {
                p.firstUnknown = .streamReset(code: errorCode)
                p.sendsAtFirstUnknown = p.processedSends
            }
            if p.resets < policy.attemptsPerItem {
                requeue(p)
                return
            }
            if refused {
                fail(p, .streamReset(times: p.resets, code: errorCode), durationNs: now &- f.startNs)
                return
            }
        }
        fail(f.pending, .unknownOutcome(.streamReset(code: errorCode)), durationNs: now &- f.startNs)
    }

    /// GOAWAY on `connection`: no new streams there. Streams above `lastStreamID` were not processed and go
    /// back in the queue now; those at or below it may still be answered, so they are awaited while the
    /// next connection opens at once.
    mutating func goAwayReceived(_ connection: Int, lastStreamID: Int32, _ notice: GoAwayNotice) {
        guard let i = index(of: connection) else { return }
        goAwaySeen = true
        // A graceful GOAWAY (no reason, or APNs' `Shutdown`), after at least 100 requests and after the same number
        // as the last one: a per-connection budget (client streams are 1, 3, 5…). One alone is a restart, and one
        // with another reason is APNs saying why (after a rejected token, say): taken as a budget, either made the
        // rest of a batch a new TLS connection every N requests, the churn APNs may take for an attack.
        let served = (Int(lastStreamID) + 1) / 2
        let graceful = notice.explanation == nil || notice.explanation == APNSReason.shutdown.rawValue
        if notice.errorCode == 0 && graceful && served >= 100 {
            if goAwayServed == served {
                requestsPerConnection = served
                for j in connections.indices where j != i { connections[j].budget = served }
            }
            goAwayServed = served
        }
        connections[i].phase.retire(.goAway(lastStream: lastStreamID, notice))
        for id in connections[i].inFlight.keys.filter({ $0 > lastStreamID }).sorted() {
            if let f = connections[i].inFlight.removeValue(forKey: id) { requeueUnprocessed(f.pending) }
        }
    }

    /// A write failed on `connection` (EPIPE, reset): submit nothing more there. The driver keeps reading;
    /// the answers already on their way are still taken, and the end of the connection follows.
    mutating func writeFailed(_ connection: Int) {
        guard let i = index(of: connection) else { return }
        connections[i].phase.retire(.writeFailed)
    }

    /// `connection` ended, and the driver has processed every frame that arrived on it. What never
    /// completely left is queued again; what did has an unknown outcome. A connection that answered
    /// nothing counts as a try without progress.
    mutating func connectionEnded(_ connection: Int, _ end: ConnectionEnd, now: UInt64) {
        guard let i = index(of: connection), connections[i].open else { return }
        let c = connections[i]
        let loss = ConnectionLoss.ended(end, after: c.phase.goAwayNotice)
        if end.isRefusal && c.answered == 0 {
            // The server refused us (a TLS alert such as "certificate required"): another connection
            // would be refused the same way, and nothing was processed.
            failInFlight(at: i, .closed(loss), written: .closed(loss), now: now)
            connections.remove(at: i)
            failEverything(.closed(loss))
            return
        }
        endConnection(at: i, why: loss, now: now)
    }

    /// Time passed (the wait's deadline, or any wake-up): enforces `--timeout` and the interrupt grace.
    mutating func tick(now: UInt64) {
        for i in connections.indices where connections[i].open && !connections[i].idle && !connections[i].closeRequested
        {
            if let d = interruptDeadline, now >= d {
                // A request completely written may have been processed: the interrupt ends the wait, not the push.
                failInFlight(at: i, .interrupted, written: .unknownOutcome(.interrupted), now: now)
                connections[i].phase.requestClose()
            } else if now >= connections[i].lastProgressNs &+ policy.timeoutNs {
                // A silent server: another connection would wait as long again. Everything left fails; what was
                // completely written may have been processed all the same (a slow backend behind a proxy).
                let seconds = Double(policy.timeoutNs) / 1e9
                let failure = TransportFailure.timeout(seconds: seconds)
                failInFlight(at: i, failure, written: .unknownOutcome(.timeout(seconds: seconds)), now: now)
                connections[i].phase.requestClose()
                failEverything(failure)
            }
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
    mutating func connectAbandoned(_ connection: Int) {
        if let i = index(of: connection), !connections[i].open { connections.remove(at: i) }
    }

    /// Streams in flight on every connection (for `--verbose`).
    var inFlightCount: Int { connections.reduce(0) { $0 + $1.inFlight.count } }

    /// Answers on `connection` (for `--verbose`).
    func answered(on connection: Int) -> Int { index(of: connection).map { connections[$0].answered } ?? 0 }

    /// Unanswered streams on `connection`, completely written or not (for `--verbose`: the first are unknown
    /// if the connection ends now, the others are sent again).
    func unanswered(on connection: Int) -> (written: Int, unwritten: Int) {
        guard let i = index(of: connection) else { return (0, 0) }
        let written = connections[i].inFlight.values.filter(\.written).count
        return (written, connections[i].inFlight.count - written)
    }

    /// The item in flight on `streamID` of `connection` (for `--verbose`).
    func job(onStream streamID: Int32, connection: Int) -> Item? {
        index(of: connection).flatMap { connections[$0].inFlight[streamID]?.pending.item }
    }

    /// Milliseconds since `streamID` was submitted (for `--verbose`).
    func elapsedMs(onStream streamID: Int32, connection: Int, now: UInt64) -> Double {
        guard let i = index(of: connection), let f = connections[i].inFlight[streamID] else { return 0 }
        return Double(now &- f.startNs) / 1e6
    }

    // MARK: - Internals

    /// RFC 9113 §8.7: REFUSED_STREAM guarantees the request was not processed.
    static var refusedStream: UInt32 { 7 }

    private func index(of connection: Int) -> Int? { connections.firstIndex { $0.id == connection } }

    /// Removes the connection at `index`, settling its unanswered items by RFC 9113 §8.7.
    private mutating func endConnection(at index: Int, why: ConnectionLoss?, now: UInt64) {
        let c = connections.remove(at: index)
        for id in c.inFlight.keys.sorted() {
            guard let f = c.inFlight[id] else { continue }
            if !f.written {
                requeueUnprocessed(f.pending)  // END_STREAM never left: the server cannot have processed it
            } else if policy.resendUnknown && f.pending.resets + 1 < policy.attemptsPerItem {
                var p = f.pending
                p.resets += 1
                if p.firstUnknown == nil {
                    p.firstUnknown = .connectionEnded(why)
                    p.sendsAtFirstUnknown = p.processedSends
                }
                requeue(p)
            } else {
                fail(f.pending, .unknownOutcome(.connectionEnded(why)), durationNs: now &- f.startNs)
            }
        }
        if let p = c.awaitingSubmit { requeue(p) }
        if c.answered > 0 {
            notBeforeNs = 0
        } else if let why {
            if withoutProgress == 0 { rowBeganWithAnEnd = true }
            countFruitless(.closed(why), now: now)
        }
    }

    /// One more connection in a row without an answer: wait before the next, or give up.
    private mutating func countFruitless(_ failure: TransportFailure, now: UInt64) {
        withoutProgress += 1
        // CLI.md: "3 attempts in a row without progress" counts every connection attempt after the one that
        // ended, the first immediate reconnect included.
        let tries = withoutProgress - (rowBeganWithAnEnd ? 1 : 0)
        if tries >= policy.reconnectsWithoutProgress {
            failEverything(.gaveUp(attempts: tries, last: failure))
            return
        }
        let steps = policy.backoffNs
        let wait = steps.isEmpty ? 0 : steps[min(withoutProgress, steps.count) - 1]
        notBeforeNs = now &+ min(wait, policy.timeoutNs)
    }

    private mutating func report(_ p: Pending, _ r: Report) {
        reported += 1
        // Queued again is not sent again: a run that ends first (gave up, interrupted) never resent it.
        let resent = p.firstUnknown != nil && p.processedSends > p.sendsAtFirstUnknown
        outbox.append(.report(p.item, r, sends: p.processedSends, resentAfterUnknown: resent))
    }

    /// Reports `p` failed. One that an earlier send may have reached stays unknown whatever ended its resend.
    private mutating func fail(_ p: Pending, _ failure: TransportFailure, durationNs: UInt64) {
        var failure = failure
        if let first = p.firstUnknown, !failure.isUnknownOutcome {
            failure = .unknownOutcome(.resendFailed(first, failure))
        }
        noteFailure(failure)
        if p.sent { owedReports -= 1 }
        report(p, .failed(failure, durationNs: durationNs))
    }

    private mutating func noteFailure(_ f: TransportFailure) {
        if firstFailure == nil { firstFailure = f }
    }

    /// Fails every request in flight on the connection at `index`: `written` for those whose request was completely
    /// written (the server may have processed them), `failure` for the others.
    private mutating func failInFlight(
        at index: Int, _ failure: TransportFailure, written: TransportFailure, now: UInt64
    ) {
        let inFlight = connections[index].inFlight
        connections[index].inFlight.removeAll(keepingCapacity: true)
        for id in inFlight.keys.sorted() {
            guard var p = inFlight[id]?.pending, let f = inFlight[id] else { continue }
            // A request that never completely left cannot have been processed: it was not sent. Cut short by an
            // interrupt, it is one of the devices never sent, with no result, as one still queued is.
            if !f.written {
                p.unprocessed += 1
                if case .interrupted = failure, p.processedSends == 0 {
                    owedReports -= 1
                    leftUnsent.append(p.item)
                    continue
                }
            }
            fail(p, f.written ? written : failure, durationNs: now &- f.startNs)
        }
    }

    /// The run gives up: everything queued fails now, anything that would be queued again later fails
    /// too, and open connections only drain what they already carry.
    private mutating func failEverything(_ failure: TransportFailure) {
        if terminalFailure == nil { terminalFailure = failure }
        for i in connections.indices {
            if let p = connections[i].awaitingSubmit {
                connections[i].awaitingSubmit = nil
                retry.append(p)
            }
        }
        while let p = retry.popFirst() { fail(p, failure, durationNs: 0) }
    }

    /// The end of an interrupted or completed run: sent-but-unanswered items still queued are reported
    /// as interrupted; items never sent are left to the caller's count.
    private mutating func finishRun() {
        if interruptedBy != nil {
            while let p = retry.popFirst() {
                // Queued again after every send of it was refused unprocessed (a GOAWAY, REFUSED_STREAM): never
                // sent, as one never taken; one whose earlier send may have been processed is reported.
                guard p.processedSends > 0 else {
                    if p.sent { owedReports -= 1 }
                    leftUnsent.append(p.item)
                    continue
                }
                fail(p, .interrupted, durationNs: 0)
            }
        }
        finished = true
    }

    /// `requeue` for a send the server provably never processed: it does not count as one.
    private mutating func requeueUnprocessed(_ p: Pending) {
        var p = p
        p.unprocessed += 1
        requeue(p)
    }

    private mutating func requeue(_ p: Pending) {
        if let failure = terminalFailure {
            fail(p, failure, durationNs: 0)
        } else {
            retry.append(p)
        }
    }

    /// Whether items wait to be sent; nil when the queue is empty and only the source can tell.
    private func hasPending() -> Bool? {
        if !retry.isEmpty { return true }
        return sourceExhausted ? false : nil
    }
}
