import Testing

@testable import APNSClient

/// One connection's phase in the sender: opening, sending, draining for a reason, closing; and which reason
/// survives when several arrive (the one the give-up message names).
@Suite struct DeliveryConnectionPhaseTests {
    typealias Phase = DeliveryConnectionPhase

    static let shutdown = GoAwayNotice(errorCode: 0, explanation: "Shutdown")
    static let overload = GoAwayNotice(errorCode: 11, explanation: nil)

    @Test func aConnectionOpensThenSends() {
        var phase = Phase.connecting
        #expect(!phase.isOpen && !phase.isClosing && phase.retirement == nil)
        phase.opened()
        #expect(phase == .sending && phase.isOpen)
        phase.opened()
        #expect(phase == .sending)
    }

    @Test func nothingRetiresAConnectionNotYetOpen() {
        var phase = Phase.connecting
        phase.retire(.writeFailed)
        #expect(phase == .connecting)
    }

    /// Each reason alone: the connection drains, and the loss it names is that reason.
    @Test(arguments: [
        (Phase.Retirement.outOfStreamIDs, ConnectionLoss.outOfStreamIDs),
        (.writeFailed, .writeFailed),
        (.goAway(lastStream: 5, shutdown), .goAway(shutdown)),
    ])
    func aSendingConnectionDrainsForOneReason(why: Phase.Retirement, loss: ConnectionLoss) {
        var phase = Phase.sending
        phase.retire(why)
        #expect(phase == .draining(why) && phase.isOpen && !phase.isClosing)
        #expect(phase.retirement?.loss == loss)
    }

    /// Reasons arriving in either order: a GOAWAY is named over a failed write, which is named over running out
    /// of stream ids, and the GOAWAY's last stream id is kept.
    @Test(arguments: [
        ([Phase.Retirement.outOfStreamIDs, .writeFailed], Phase.Retirement.writeFailed),
        ([.writeFailed, .outOfStreamIDs], .writeFailed),
        ([.writeFailed, .goAway(lastStream: 9, shutdown)], .goAway(lastStream: 9, shutdown)),
        ([.goAway(lastStream: 9, shutdown), .writeFailed, .outOfStreamIDs], .goAway(lastStream: 9, shutdown)),
    ])
    func theReasonMessagesNameWins(reasons: [Phase.Retirement], kept: Phase.Retirement) {
        var phase = Phase.sending
        for why in reasons { phase.retire(why) }
        #expect(phase == .draining(kept))
    }

    /// A second GOAWAY may lower the last stream id but never raise it; its notice replaces the first.
    @Test func aSecondGoAwayLowersTheLastStreamAndRenamesTheNotice() {
        var phase = Phase.sending
        phase.retire(.goAway(lastStream: 2_147_483_647, Self.shutdown))
        phase.retire(.goAway(lastStream: 7, Self.overload))
        #expect(phase.goAwayLastStream == 7 && phase.goAwayNotice == Self.overload)
        phase.retire(.goAway(lastStream: 11, Self.shutdown))
        #expect(phase.goAwayLastStream == 7 && phase.goAwayNotice == Self.shutdown)
    }

    /// Closing keeps the reason it had and takes later ones, so an end reported before the close still names the GOAWAY.
    @Test func closingKeepsAndTakesTheReason() {
        var sending = Phase.sending
        sending.requestClose()
        #expect(sending == .closing(nil) && sending.isClosing && sending.isOpen)
        sending.retire(.goAway(lastStream: 3, Self.shutdown))
        #expect(sending == .closing(.goAway(lastStream: 3, Self.shutdown)))

        var draining = Phase.draining(.writeFailed)
        draining.requestClose()
        #expect(draining == .closing(.writeFailed))
        draining.retire(.outOfStreamIDs)
        #expect(draining == .closing(.writeFailed) && draining.goAwayNotice == nil)
    }
}
