import APNSCore
import Testing

@testable import APNSHTTP2

/// The server session fed raw client frames: what it delivers and exactly which frames it sends back.
@Suite struct HTTP2ServerSessionTests {
    /// Feeds `bytes`, then returns every frame the session wants to send.
    private func exchange(_ session: HTTP2ServerSession, _ bytes: [UInt8]) throws -> [ParsedFrame] {
        try bytes.withUnsafeBytes { try session.receive($0) }
        return try drain(session)
    }

    private func drain(_ session: HTTP2ServerSession) throws -> [ParsedFrame] {
        var out: [UInt8] = []
        while try session.prepareOutput() {
            session.withPendingOutput {
                out += $0
                return $0.count
            }
        }
        return ParsedFrame.parseAll(out)
    }

    @Test func advertisesAPNsSettingsFirst() throws {
        let session = try HTTP2ServerSession()
        let frames = try drain(session)
        let first = try #require(frames.first)
        #expect(first.type == RawFrames.settings)
        let values = Dictionary(uniqueKeysWithValues: first.settings.map { ($0.0, $0.1) })
        #expect(values[0x3] == 1000)  // MAX_CONCURRENT_STREAMS
        #expect(values[0x1] == 4096)  // HEADER_TABLE_SIZE
        #expect(values[0x6] == 8000)  // MAX_HEADER_LIST_SIZE
    }

    @Test func deliversWholeRequestsAndAnswers200OnOneHeadersFrame() throws {
        let session = try HTTP2ServerSession()
        _ = try drain(session)
        let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        _ = try exchange(
            session,
            RawFrames.clientStart()
                + RawFrames.request(
                    stream: 1, extra: [("apns-topic", "com.example"), ("apns-id", "x"), ("apns-id", "y")],
                    endStream: false)
                + RawFrames.body(stream: 1, Array(payload[0..<5]), endStream: false))
        #expect(session.takeRequests().isEmpty)
        _ = try exchange(session, RawFrames.body(stream: 1, Array(payload[5...]), endStream: true))
        let requests = session.takeRequests()
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.streamID == 1)
        #expect(request.body == payload)
        #expect(request.headers.value(of: ":method") == "POST")
        #expect(request.headers.value(of: "apns-topic") == "com.example")
        #expect(request.headers.filter { $0.name == "apns-id" }.map(\.value) == ["x", "y"])

        try session.respond(streamID: 1, status: 200, headers: [HeaderField("apns-id", "ABC")])
        let frames = try drain(session).filter { $0.stream == 1 }
        #expect(frames.count == 1)
        let headers = try #require(frames.first)
        #expect(headers.type == RawFrames.headers)
        #expect(headers.flags & RawFrames.endStream != 0)
        #expect(headers.payload.first == 0x88)  // HPACK static index 8: ":status: 200"
    }

    @Test func errorAnswersCarryTheBodyInData() throws {
        let session = try HTTP2ServerSession()
        _ = try exchange(session, RawFrames.clientStart() + RawFrames.request(stream: 1, endStream: true))
        #expect(session.takeRequests().count == 1)
        let reason = Array(#"{"reason":"BadDeviceToken"}"#.utf8)
        try session.respond(
            streamID: 1, status: 400, headers: [HeaderField("content-type", "application/json")], body: reason)
        let frames = try drain(session).filter { $0.stream == 1 }
        #expect(frames.map(\.type) == [RawFrames.headers, RawFrames.data])
        #expect(frames[0].flags & RawFrames.endStream == 0)
        #expect(frames[1].flags & RawFrames.endStream != 0)
        #expect(frames[1].payload == reason)
        #expect(session.state.openStreams.count == 0)
    }

    @Test func capsTheStoredBodyButCountsAllOfIt() throws {
        let session = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxBodyBytes: 100))
        var bytes = RawFrames.clientStart() + RawFrames.request(stream: 1, endStream: false)
        for _ in 0..<3 { bytes += RawFrames.body(stream: 1, [UInt8](repeating: 0x41, count: 16_000), endStream: false) }
        bytes += RawFrames.body(stream: 1, [UInt8](repeating: 0x41, count: 10), endStream: true)
        _ = try exchange(session, bytes)
        let request = try #require(session.takeRequests().first)
        #expect(request.body.count == 100)
        #expect(request.bodySize == 48_010)
    }

    @Test func tooManyStreamsGetAPNsGoAwayText() throws {
        let session = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxConcurrentStreams: 1))
        _ = try drain(session)
        _ = try exchange(
            session, RawFrames.clientStart() + RawFrames.settingsAck() + RawFrames.request(stream: 1, endStream: false))
        #expect(throws: HTTP2ServerError.streamLimitExceeded(limit: 1)) {
            try RawFrames.request(stream: 3, endStream: true).withUnsafeBytes { try session.receive($0) }
        }
        let goAways = try drain(session).compactMap(\.goAway)
        #expect(goAways.count == 1)
        #expect(goAways.first?.debug == "Maximum active streams violated for this endpoint.")
        #expect(goAways.first?.lastStream == 1)
        #expect(goAways.first?.code == 1)
    }

    @Test func unfinishedRequestDataPastTheCapIsRefused() throws {
        let session = try HTTP2ServerSession(
            settings: HTTP2ServerSettings(maxBodyBytes: 2000, maxUnfinishedRequestBytes: 3000))
        _ = try drain(session)
        let half = [UInt8](repeating: 0x41, count: 1500)
        _ = try exchange(
            session,
            RawFrames.clientStart() + RawFrames.settingsAck()
                + RawFrames.request(stream: 1, endStream: false) + RawFrames.body(stream: 1, half, endStream: false))
        // Stream 3 would hold more than the connection may: REFUSED_STREAM (safe to retry), and it never completes.
        let refused = try exchange(
            session, RawFrames.request(stream: 3, endStream: false) + RawFrames.body(stream: 3, half, endStream: false)
        )
        .filter { $0.type == RawFrames.rstStream }
        #expect(refused.map(\.stream) == [3])
        #expect(refused.first.map { ParsedFrame.uint32($0.payload, at: 0) } == 7)
        _ = try exchange(
            session, RawFrames.body(stream: 3, [1], endStream: true) + RawFrames.body(stream: 1, [1], endStream: true))
        #expect(session.takeRequests().map(\.streamID) == [1])
        // Stream 1 finished: what it held is free again.
        _ = try exchange(
            session, RawFrames.request(stream: 5, endStream: false) + RawFrames.body(stream: 5, half, endStream: true))
        let later = session.takeRequests()
        #expect(later.map(\.streamID) == [5])
        #expect(later.first?.body.count == 1500)
    }

    @Test func raisedLimitIsAdvertisedAndHonoured() throws {
        let session = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxConcurrentStreams: 1))
        _ = try exchange(
            session, RawFrames.clientStart() + RawFrames.settingsAck() + RawFrames.request(stream: 1, endStream: true))
        try session.setMaxConcurrentStreams(1000)
        let settings = try drain(session).filter { $0.type == RawFrames.settings && $0.flags & RawFrames.ack == 0 }
        #expect(settings.last?.settings.first { $0.0 == 0x3 }?.1 == 1000)
        _ = try exchange(
            session,
            RawFrames.settingsAck() + RawFrames.request(stream: 3, endStream: false)
                + RawFrames.request(stream: 5, endStream: true))
        #expect(session.takeRequests().map(\.streamID) == [1, 5])
        #expect(session.state.openStreams.count == 3)
    }

    @Test func garbageIsAProtocolViolation() throws {
        let session = try HTTP2ServerSession()
        #expect(throws: HTTP2ServerError.self) {
            try Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { try session.receive($0) }
        }
    }

    @Test func goAwayLeavesLaterStreamsUnansweredAndFinishes() throws {
        let session = try HTTP2ServerSession()
        _ = try exchange(
            session,
            RawFrames.clientStart() + RawFrames.settingsAck()
                + RawFrames.request(stream: 1, endStream: true) + RawFrames.request(stream: 3, endStream: true))
        #expect(session.takeRequests().count == 2)
        session.goAway(lastStreamID: 1, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
        try session.respond(streamID: 1, status: 200, headers: [])
        let frames = try drain(session)
        let goAway = try #require(frames.compactMap(\.goAway).first)
        #expect(goAway.lastStream == 1)
        #expect(goAway.debug == #"{"reason":"Shutdown"}"#)
        #expect(frames.contains { $0.stream == 1 && $0.type == RawFrames.headers })
        #expect(session.isFinished)
    }

    @Test func oversizedHeaderListResetsOnlyThatStream() throws {
        let session = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxHeaderListSize: 300))
        let big = String(repeating: "a", count: 400)
        let frames = try exchange(
            session,
            RawFrames.clientStart() + RawFrames.request(stream: 1, extra: [("x-big", big)], endStream: true)
                + RawFrames.request(stream: 3, endStream: true))
        #expect(frames.contains { $0.type == RawFrames.rstStream && $0.stream == 1 })
        #expect(session.takeRequests().map(\.streamID) == [3])
    }

    /// Mutated client byte streams fed in random chunks: the session must reject or accept, never trap or hang.
    @Test func survivesMutatedInput() throws {
        var rng = SplitMix(seed: 0x5eed)
        let valid =
            RawFrames.clientStart() + RawFrames.settingsAck()
            + RawFrames.request(stream: 1, extra: [("apns-topic", "com.example")], endStream: false)
            + RawFrames.body(stream: 1, Array(#"{"aps":{}}"#.utf8), endStream: true)
            + RawFrames.request(stream: 3, endStream: true)
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int(rng.next() % 6 + 1) {
                let i = RawFrames.preface.count + Int(rng.next() % UInt64(bytes.count - RawFrames.preface.count))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            let session = try HTTP2ServerSession(
                settings: HTTP2ServerSettings(maxConcurrentStreams: 2, maxBodyBytes: 16))
            var offset = 0
            while offset < bytes.count {
                let n = min(bytes.count - offset, Int(rng.next() % 40) + 1)
                do {
                    try bytes[offset..<(offset + n)].withUnsafeBytes { try session.receive($0) }
                } catch {
                    break
                }
                for r in session.takeRequests() { try? session.respond(streamID: r.streamID, status: 200, headers: []) }
                offset += n
            }
            while (try? session.prepareOutput()) == true { session.withPendingOutput { $0.count } }
        }
    }
}

/// A small deterministic generator for the mutation test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
