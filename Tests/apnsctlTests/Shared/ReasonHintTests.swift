import APNSCore
import Testing

@testable import APNSCtlCommands

/// Every APNs reason gets advice from apnsctl (CLI.md: "a one-line meaning and a hint on what to check"),
/// and broadcasts get their own where the flag to change differs.
@Suite struct ReasonHintTests {
    @Test(arguments: APNSReason.allCases)
    func everyReasonHasAHint(reason: APNSReason) {
        #expect(reason.hint.count > 10)
        #expect(reason.hint.hasSuffix(".") || reason.hint.hasSuffix("?"))
        #expect(reason.hint(broadcast: true).count > 10)
    }

    @Test func broadcastHintsNameTheBroadcastFlags() {
        #expect(APNSReason.badExpirationDate.hint(broadcast: true).contains("--storage none"))
        #expect(APNSReason.badExpirationDate.hint(broadcast: false) == APNSReason.badExpirationDate.hint)
    }
}
