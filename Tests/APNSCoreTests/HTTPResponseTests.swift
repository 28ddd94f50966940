import APNSCore
import Testing

/// The answer's parts as values: `:status` read from its bytes, and a reason APNs documents told apart from
/// any other, which is kept as received.
@Suite struct HTTPResponseTests {
    @Test(arguments: [
        ("200", 200), ("410", 410), ("099", 99), ("", 0), ("20x", 0), ("+200", 0), (" 200", 0),
        ("-1", 0), ("2000000000", 0), ("٢٠٠", 0),
    ])
    func statusIsReadFromItsDigits(_ text: String, _ expected: Int) {
        #expect(HTTPResponse.status(fromDigits: Array(text.utf8)) == expected)
    }

    @Test func aReasonIsKnownOrKeptAsReceived() {
        #expect(ReceivedReason("BadDeviceToken") == .known(.badDeviceToken))
        #expect(ReceivedReason("badDeviceToken") == .unknown("badDeviceToken"), "case matters, as on the wire")
        #expect(ReceivedReason("TooManyPushesToday").text == "TooManyPushesToday")
        #expect(ReceivedReason("Unregistered").text == "Unregistered")
    }
}
