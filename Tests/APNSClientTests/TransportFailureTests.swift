import Testing

@testable import APNSClient

/// Failures are values up to the exit; their one-line messages are rendered from those values, the same
/// text the strings built along the way used to carry.
@Suite struct TransportFailureTests {
    static let shutdown = GoAwayNotice(errorCode: 0, explanation: "Shutdown")

    @Test func connectionLossesRead() {
        #expect(
            TransportFailure.closed(.ended(.reset, after: Self.shutdown)).description
                == "the server reset the connection (TCP RST) after GOAWAY NO_ERROR: Shutdown")
        #expect(
            TransportFailure.closed(.ended(.closedCleanly, after: nil)).description
                == "the server closed the connection")
        #expect(TransportFailure.closed(.goAway(GoAwayNotice(errorCode: 11))).description == "GOAWAY ENHANCE_YOUR_CALM")
        #expect(TransportFailure.closed(.writeFailed).description == "writing to the server failed")
        #expect(TransportFailure.closed(.outOfStreamIDs).description == "the HTTP/2 session ran out of stream ids")
        #expect(
            TransportFailure.closed(.ended(.protocolError(.goAwaySent(code: 1)), after: nil)).description
                == "HTTP/2 protocol error: the server broke the protocol; apnsctl closed the connection with PROTOCOL_ERROR"
        )
    }

    @Test func unknownOutcomesSayWhatHappened() {
        #expect(
            TransportFailure.unknownOutcome(.streamReset(code: 2)).description
                == "unknown: the server reset the stream (INTERNAL_ERROR) after the request was sent; APNs may have delivered it"
        )
        #expect(
            TransportFailure.unknownOutcome(.streamReset(code: 11)).description
                == "unknown: the server reset the stream (error code 11) after the request was sent; APNs may have delivered it"
        )
        #expect(
            TransportFailure.unknownOutcome(.connectionEnded(.ended(.eofWithoutCloseNotify, after: nil))).description
                == "unknown: the connection ended after the request was sent; APNs may have delivered it "
                + "(the server dropped the connection (EOF without TLS close_notify))")
        #expect(
            TransportFailure.unknownOutcome(.connectionEnded(nil)).description
                == "unknown: the connection ended after the request was sent; APNs may have delivered it")
    }

    @Test func summariesCompareFailuresAsValues() {
        var a = SendSummary()
        var b = SendSummary()
        a.failure = .closed(.goAway(Self.shutdown))
        b.failure = .closed(.goAway(GoAwayNotice(errorCode: 0, explanation: "Shutdown")))
        #expect(a == b)
        b.failure = .unknownOutcome(.connectionEnded(.goAway(Self.shutdown)))
        #expect(a != b)
    }
}
