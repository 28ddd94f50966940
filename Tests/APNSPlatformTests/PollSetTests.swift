import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wait: descriptors and an interrupt until a deadline, one rounding that never wakes early.
@Suite struct PollSetTests {
    @Test func theDeadlineIsRoundedUpToWholeMilliseconds() {
        let now: UInt64 = 5_000_000_000
        #expect(PollSet.milliseconds(until: nil, now: now) == -1)
        #expect(PollSet.milliseconds(until: now, now: now) == 0)
        #expect(PollSet.milliseconds(until: now - 1, now: now) == 0)
        #expect(PollSet.milliseconds(until: 0, now: now) == 0)
        #expect(PollSet.milliseconds(until: now + 1, now: now) == 1)
        #expect(PollSet.milliseconds(until: now + 999_999, now: now) == 1)
        #expect(PollSet.milliseconds(until: now + 1_000_000, now: now) == 1)
        #expect(PollSet.milliseconds(until: now + 1_000_001, now: now) == 2)
        #expect(PollSet.milliseconds(until: now + 2_500_000_000, now: now) == 2500)
        #expect(PollSet.milliseconds(until: .max, now: now) == Int32.max)
    }

    @Test func aWaitWithNothingReadyEndsAtItsDeadlineAndNotBefore() throws {
        let pipe = try #require(WakePipe())
        for delay: UInt64 in [1, 400_000, 1_000_000, 7_300_000, 20_000_000] {
            var poller = PollSet()
            poller.add(pipe.readFD, .readable)
            let deadline = SystemClock.monotonicNanoseconds() + delay
            #expect(poller.wait(until: deadline) == .deadline)
            #expect(SystemClock.monotonicNanoseconds() >= deadline, "woke before a deadline \(delay) ns away")
            #expect(!poller.events(at: 0).any)
        }
    }

    @Test func aReadyDescriptorEndsTheWaitAndSaysWhich() throws {
        let quiet = try #require(WakePipe())
        let busy = try #require(WakePipe())
        busy.signal()
        var poller = PollSet()
        let first = poller.add(quiet.readFD, .readable)
        let second = poller.add(busy.readFD, .readable)
        let writable = poller.add(quiet.writeFD, .writable)
        #expect(poller.count == 3)
        let start = SystemClock.monotonicNanoseconds()
        #expect(poller.wait(until: start + 10_000_000_000) == .ready)
        #expect(SystemClock.monotonicNanoseconds() - start < 5_000_000_000)
        #expect(poller.events(at: first).isEmpty)
        #expect(poller.events(at: second).contains(.readable))
        #expect(poller.events(at: second).readableOrClosed)
        #expect(poller.events(at: writable) == .writable)
        #expect(poller.events(at: 7).isEmpty)
    }

    @Test func theInterruptWinsAndKeepsItsByte() throws {
        let socketLike = try #require(WakePipe())
        let interrupt = try #require(WakePipe())
        var poller = PollSet()
        poller.add(socketLike.readFD, .readable)
        #expect(
            poller.wait(until: SystemClock.monotonicNanoseconds() + 1_000_000, interrupt: interrupt.readFD) == .deadline
        )
        interrupt.write(byte: 15)
        socketLike.signal()
        #expect(poller.wait(until: nil, interrupt: interrupt.readFD) == .interrupted)
        // The other descriptors are still reported, and the interrupt is not one of them.
        #expect(poller.count == 1)
        #expect(poller.events(at: 0).contains(.readable))
        #expect(poller.events(at: 1).isEmpty)
        #expect(interrupt.readByte() == 15)
        #expect(poller.wait(until: nil, interrupt: interrupt.readFD) == .ready)
    }

    @Test func aLeftOutSlotKeepsItsIndexAndIsNeverReady() throws {
        let busy = try #require(WakePipe())
        busy.signal()
        var poller = PollSet()
        poller.add(nil, .readable)
        poller.add(busy.readFD, .readable)
        #expect(poller.wait(until: nil) == .ready)
        #expect(poller.events(at: 0).isEmpty)
        #expect(poller.events(at: 1).contains(.readable))
        poller.removeAll()
        #expect(poller.count == 0)
        #expect(poller.events(at: 1).isEmpty)
        #expect(poller.wait(until: SystemClock.monotonicNanoseconds()) == .deadline)
    }

    @Test func aPeerThatHungUpCountsAsReadable() throws {
        var peer = WakePipe()
        let readEnd = try #require(peer?.readFD)
        // Keep the read end, close the write end: dup the read end, then let the pipe go.
        let kept = dup(readEnd)
        peer = nil
        defer { close(kept) }
        var poller = PollSet()
        poller.add(kept, .readable)
        #expect(poller.wait(until: nil) == .ready)
        #expect(poller.events(at: 0).readableOrClosed)
        #expect(poller.events(at: 0).contains(.hangUp))
    }
}
