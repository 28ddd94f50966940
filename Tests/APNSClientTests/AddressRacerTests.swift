import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// RFC 8305 connection racing with a fake resolver and fake sockets: time and outcomes are values.
@Suite struct AddressRacerTests {
    /// A fake network: address → when (ns after its start) the attempt connects, fails, or nil (never answers).
    enum Fate {
        case connects(after: UInt64)
        case fails(after: UInt64)
        case hangs
    }

    /// Runs the racer against `fates`; returns (index that connected or nil, time it finished, starts).
    func race(_ fates: [Fate], timeout: UInt64 = 30_000_000_000) -> (
        winner: Int?, at: UInt64, starts: [(Int, UInt64)], timedOut: Bool
    ) {
        var racer = AddressRacer(count: fates.count, deadline: timeout)
        var now: UInt64 = 0
        var started: [(Int, UInt64)] = []
        var pending: [Int: UInt64] = [:]
        for _ in 0..<1000 {
            switch racer.next(now: now) {
            case .start(let i):
                started.append((i, now))
                switch fates[i] {
                case .connects(let d): pending[i] = now + d
                case .fails(let d): pending[i] = now + d
                case .hangs: pending[i] = UInt64.max
                }
            case .giveUp(let timedOut):
                return (nil, now, started, timedOut)
            case .wait(let until):
                // The first pending attempt to finish before `until`, else time moves to `until`.
                if let (i, at) = pending.filter({ $0.value <= until }).min(by: { $0.value < $1.value }) {
                    now = at
                    pending[i] = nil
                    if case .connects = fates[i] { return (i, now, started, false) }
                    racer.attemptFailed()
                } else {
                    now = until
                }
            }
        }
        Issue.record("the race did not end")
        return (nil, now, started, false)
    }

    let ms: UInt64 = 1_000_000

    @Test func anUnreachableFirstAddressCostsOneStaggerNotATimeout() {
        let r = race([.hangs, .connects(after: 1 * ms)])
        #expect(r.winner == 1)
        #expect(r.at == 251 * ms)
        #expect(r.starts.map(\.1) == [0, 250 * ms])
    }

    @Test func aRefusedAddressStartsTheNextAtOnce() {
        let r = race([.fails(after: 1 * ms), .connects(after: 1 * ms)])
        #expect(r.winner == 1 && r.at == 2 * ms)
    }

    @Test func theFirstToConnectWinsEvenIfStartedLater() {
        let r = race([.connects(after: 900 * ms), .connects(after: 10 * ms), .hangs])
        #expect(r.winner == 1 && r.at == 260 * ms)
    }

    @Test func everyAddressFailingGivesUpWithoutWaitingForTheDeadline() {
        let r = race([.fails(after: 1 * ms), .fails(after: 2 * ms), .fails(after: 1 * ms)])
        #expect(r.winner == nil && !r.timedOut && r.at == 4 * ms)
    }

    @Test func allHangingTimesOutAtTheDeadline() {
        let r = race([.hangs, .hangs], timeout: 2_000_000_000)
        #expect(r.winner == nil && r.timedOut && r.at == 2_000_000_000)
        #expect(r.starts.count == 2)
    }

    @Test func familiesAreInterleavedStartingWithTheResolversFirst() {
        let addresses = ["6a", "6b", "6c", "4a", "4b"]
        #expect(AddressRacer.interleaved(addresses, isIPv6: { $0.hasPrefix("6") }) == ["6a", "4a", "6b", "4b", "6c"])
        #expect(AddressRacer.interleaved(["4a", "6a", "4b"], isIPv6: { $0.hasPrefix("6") }) == ["4a", "6a", "4b"])
        #expect(AddressRacer.interleaved([String](), isIPv6: { _ in true }).isEmpty)
    }

    /// A listener whose accept queue is full: the kernel drops further SYNs, so a connect to it neither
    /// succeeds nor fails (a broken route, as far as the client can tell).
    private func unansweringAddress() throws -> (listener: Socket, fillers: [Socket], address: SocketAddress) {
        let listener = try Socket.listen(host: "127.0.0.2", port: 0, backlog: 0)
        var fillers: [Socket] = []
        let address = try #require(
            try Socket.resolveAll(host: "127.0.0.2", port: listener.localPort, numericOnly: true).first)
        for _ in 0..<4 {
            if case .inProgress(let s) = Socket.startConnect(to: address) { fillers.append(s) }
            if case .connected(let s) = Socket.startConnect(to: address) { fillers.append(s) }
        }
        // Ready once the kernel's accept queue holds a finished handshake: with a backlog of 0 it is full then.
        try #require(
            Wait.until { Self.acceptQueueLength(port: listener.localPort, hexAddress: "0200007F") >= 1 },
            "the listener's accept queue never filled")
        return (listener, fillers, address)
    }

    /// The accept queue of the listening TCP socket on `hexAddress:port` (as /proc/net/tcp spells it), or -1.
    private static func acceptQueueLength(port: Int, hexAddress: String) -> Int {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let local = hexAddress + ":" + String(format: "%04X", port)
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            // A LISTEN socket's rx_queue is its accept queue's length.
            guard fields.count > 4, fields[1] == local, fields[3] == "0A" else { continue }
            return Int(fields[4].split(separator: ":").last ?? "", radix: 16) ?? -1
        }
        return -1
    }

    @Test func realSocketsAnUnansweringFirstAddressCostsOneStagger() throws {
        let dead = try unansweringAddress()
        let good = try Socket.listen(host: "127.0.0.3", port: 0)
        let goodAddress = try #require(
            try Socket.resolveAll(host: "127.0.0.3", port: good.localPort, numericOnly: true).first)
        let start = SystemClock.monotonicNanoseconds()
        let socket = try Socket.connect(
            to: [dead.address, goodAddress], host: "test", port: 0, timeout: 10,
            deadline: start + 10_000_000_000)
        let ms = Double(SystemClock.monotonicNanoseconds() - start) / 1e6
        #expect(socket.fd >= 0)
        #expect(ms >= 240, "the second address waits for the stagger: \(ms) ms")
        #expect(ms < 5_000, "one stagger (250 ms), not a timeout (10 s): \(ms) ms")
        withExtendedLifetime(dead) {}
    }

    @Test func realSocketsOnlyUnansweringAddressesTimeOut() throws {
        let dead = try unansweringAddress()
        let start = SystemClock.monotonicNanoseconds()
        #expect(throws: SocketError.timeout(host: "test", port: 1, seconds: 1)) {
            try Socket.connect(to: [dead.address], host: "test", port: 1, timeout: 1, deadline: start + 1_000_000_000)
        }
        let seconds = Double(SystemClock.monotonicNanoseconds() - start) / 1e9
        #expect(seconds >= 0.9 && seconds < 5)
        withExtendedLifetime(dead) {}
    }
}
