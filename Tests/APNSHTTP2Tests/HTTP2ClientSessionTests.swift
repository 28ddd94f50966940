import APNSCore
import Testing

@testable import APNSHTTP2

/// The client session against the server session, bytes shuttled in memory: no sockets, no TLS.
@Suite struct HTTP2ClientSessionTests {
    /// Moves bytes both ways until neither side has anything to send.
    private func shuttle(
        _ client: HTTP2ClientSession, _ server: HTTP2ServerSession,
        answer: (HTTP2ServerRequest, HTTP2ServerSession) throws -> Void = { _, _ in }
    ) throws -> [HTTP2ClientEvent] {
        var events: [HTTP2ClientEvent] = []
        for _ in 0..<50 {
            var moved = false
            if try client.prepareOutput() {
                var chunk: [UInt8] = []
                client.withPendingOutput { bytes in
                    chunk = Array(bytes)
                    return bytes.count
                }
                try chunk.withUnsafeBytes { try server.receive($0) }
                moved = true
            }
            for r in server.takeRequests() { try answer(r, server) }
            var out: [UInt8] = []
            while try server.prepareOutput() {
                server.withPendingOutput {
                    out += $0
                    return $0.count
                }
            }
            if !out.isEmpty {
                try out.withUnsafeBytes { try client.receive($0) }
                moved = true
            }
            events += client.takeEvents()
            if !moved { break }
        }
        return events
    }

    /// A POST to `path` as the sender submits it.
    private func submit(_ client: HTTP2ClientSession, _ path: String, body: [UInt8]) throws -> Int32 {
        try client.submitRequest(
            method: "POST", authority: "localhost", path: path,
            headers: [HeaderField("apns-topic", "com.example.demo")], body: body)
    }

    @Test func requestGetsStatusHeadersAndBody() throws {
        let client = try HTTP2ClientSession()
        let server = try HTTP2ServerSession()
        let body = Array("{\"aps\":{\"alert\":\"hi\"}}".utf8)
        let id = try submit(client, "/3/device/aa", body: body)
        var seen: HTTP2ServerRequest?
        let events = try shuttle(client, server) { r, s in
            seen = r
            try s.respond(
                streamID: r.streamID, status: 400, headers: [HeaderField("apns-id", "X")],
                body: Array("{\"reason\":\"BadDeviceToken\"}".utf8))
        }
        #expect(seen?.body == body)
        #expect(seen?.headers.value(of: ":path") == "/3/device/aa")
        #expect(
            events == [
                .response(
                    streamID: id,
                    HTTPResponse(
                        status: 400, headers: [HeaderField("apns-id", "X")],
                        body: Array("{\"reason\":\"BadDeviceToken\"}".utf8)))
            ])
        #expect(client.state.streams.isEmpty)
    }

    @Test func serverSettingsAreSeenAndPushIsDisabled() throws {
        let client = try HTTP2ClientSession()
        var settings = HTTP2ServerSettings()
        settings.maxConcurrentStreams = 7
        let server = try HTTP2ServerSession(settings: settings)
        #expect(!client.receivedServerSettings)
        _ = try shuttle(client, server)
        #expect(client.receivedServerSettings)
        #expect(client.serverMaxConcurrentStreams == 7)
    }

    @Test func manyStreamsAreMultiplexedAndEachAnsweredOnce() throws {
        let client = try HTTP2ClientSession()
        let server = try HTTP2ServerSession()
        _ = try shuttle(client, server)
        var ids: Set<Int32> = []
        for i in 0..<200 { ids.insert(try submit(client, "/3/device/\(i)", body: [0x7B, 0x7D])) }
        let events = try shuttle(client, server) { r, s in try s.respond(streamID: r.streamID, status: 200, headers: [])
        }
        let answered = events.compactMap { e -> Int32? in
            if case .response(let id, let r) = e, r.status == 200 { return id }
            return nil
        }
        #expect(Set(answered) == ids)
        #expect(answered.count == 200)
    }

    /// The shared fields are lent to nghttp2, not copied: requests queued behind the server's stream limit keep
    /// the fields they were submitted with after the batch's list changed (a new bearer token) and the caller
    /// dropped the old list, and each request carries exactly its own. Names go out lower-cased.
    @Test func lentFieldsOutliveAChangeOfListWhileRequestsWait() throws {
        let client = try HTTP2ClientSession()
        var settings = HTTP2ServerSettings()
        settings.maxConcurrentStreams = 5
        let server = try HTTP2ServerSession(settings: settings)
        _ = try shuttle(client, server)
        var expected: [String: String] = [:]
        for round in 0..<4 {
            // A list of its own each round, gone from the caller once its requests are submitted.
            let token = "bearer " + String(repeating: Character(UnicodeScalar(UInt8(0x61 + round))), count: 180 + round)
            let headers = [
                HeaderField("Authorization", token), HeaderField("apns-topic", "com.example.r\(round)"),
                HeaderField("apns-id", "id-\(round)", neverIndex: true),
            ]
            for i in 0..<50 {
                let path = "/3/device/\(round)-\(i)"
                _ = try client.submitRequest(
                    method: "POST", authority: "localhost", path: path, headers: headers, body: [0x7B, 0x7D])
                expected[path] = token
            }
            // Other allocations of the same sizes, which would reuse a block freed too early.
            _ = (0..<20).map { _ in [UInt8](repeating: 0xEE, count: 400) }
        }
        var seen: [String: [HeaderField]] = [:]
        _ = try shuttle(client, server) { r, s in
            seen[r.headers.value(of: ":path") ?? "?"] = r.headers
            try s.respond(streamID: r.streamID, status: 200, headers: [])
        }
        #expect(seen.count == 200)
        for (path, token) in expected {
            let h = seen[path] ?? []
            #expect(h.value(of: "authorization") == token, "\(path)")
            #expect(
                h.map(\.name) == [
                    ":method", ":scheme", ":authority", ":path", "authorization", "apns-topic", "apns-id",
                ])
            let round = path.dropFirst("/3/device/".count).prefix(1)
            #expect(h.value(of: "apns-topic") == "com.example.r\(round)" && h.value(of: "apns-id") == "id-\(round)")
        }
        #expect(client.state.streams.isEmpty)
    }

    @Test func goAwayReportsDebugDataAndRefusesLaterStreams() throws {
        let client = try HTTP2ClientSession()
        let server = try HTTP2ServerSession()
        _ = try shuttle(client, server)
        let first = try submit(client, "/3/device/01", body: [0x7B, 0x7D])
        let second = try submit(client, "/3/device/02", body: [0x7B, 0x7D])
        let events = try shuttle(client, server) { r, s in
            if r.streamID == first {
                try s.respond(streamID: r.streamID, status: 200, headers: [])
                s.goAway(lastStreamID: first, code: .noError, debugData: Array("{\"reason\":\"Shutdown\"}".utf8))
            }
        }
        #expect(events.contains(.response(streamID: first, HTTPResponse(status: 200))))
        #expect(events.contains(.unanswered(streamID: second, errorCode: HTTP2ErrorCode.refusedStream.rawValue)))
        let goAway = try #require(events.lazy.compactMap { if case .goAway(let g) = $0 { g } else { nil } }.first)
        #expect(goAway.lastStreamID == first)
        #expect(String(decoding: goAway.debugData, as: UTF8.self) == "{\"reason\":\"Shutdown\"}")
        // A request submitted after the GOAWAY never reaches the server.
        let third = try submit(client, "/3/device/03", body: [0x7B, 0x7D])
        var reached = false
        let later = try shuttle(client, server) { _, _ in reached = true }
        #expect(!reached)
        #expect(later.contains { if case .unanswered(third, _) = $0 { true } else { false } }, "\(later)")
    }

    /// A stream the server resets (here: its header list is over the size the server allows, which nghttp2
    /// resets with INTERNAL_ERROR) ends unanswered, with the reset's code.
    @Test func resetStreamIsUnanswered() throws {
        let client = try HTTP2ClientSession()
        let server = try HTTP2ServerSession(settings: HTTP2ServerSettings(maxHeaderListSize: 100))
        let id = try submit(client, "/3/device/01", body: [])
        var reached = false
        let events = try shuttle(client, server) { _, _ in reached = true }
        #expect(!reached)
        #expect(events == [.unanswered(streamID: id, errorCode: HTTP2ErrorCode.internalError.rawValue)])
    }

    @Test func garbageFromTheServerEndsTheSessionWithAProtocolError() throws {
        let client = try HTTP2ClientSession()
        _ = try submit(client, "/3/device/01", body: [])
        let junk = Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)
        do {
            try junk.withUnsafeBytes { try client.receive($0) }
        } catch {
            return  // rejected outright: also fine
        }
        while try client.prepareOutput() { client.withPendingOutput { $0.count } }
        #expect(client.protocolErrorSent == HTTP2ErrorCode.protocolError.rawValue)
        #expect(!client.wantsRead)
    }

    /// Drains the client's output, as if all of it reached the server.
    private func flushAll(_ client: HTTP2ClientSession) throws {
        while try client.prepareOutput() { client.withPendingOutput { $0.count } }
    }

    private func feed(_ client: HTTP2ClientSession, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try client.receive($0) }
    }

    /// A server (as some proxies do) that answers before reading the body, then resets the stream with
    /// NO_ERROR: an answer, final (curl gives up there; APNs clients must not).
    @Test func anAnswerBeforeTheBodyThenResetWithNoErrorIsAnAnswer() throws {
        let client = try HTTP2ClientSession()
        let id = try submit(client, "/3/device/01", body: [UInt8](repeating: 0x20, count: 200_000))
        try flushAll(client)
        #expect(client.takeWrittenRequests().isEmpty, "a 200 kB body cannot leave within the first 64 kB window")
        try feed(
            client,
            RawFrames.frame(type: RawFrames.settings, flags: 0, stream: 0, payload: [])
                + RawFrames.frame(
                    type: RawFrames.headers, flags: RawFrames.endHeaders | RawFrames.endStream, stream: UInt32(id),
                    payload: RawFrames.headerBlock([(":status", "413")]))
                + RawFrames.frame(type: RawFrames.rstStream, flags: 0, stream: UInt32(id), payload: [0, 0, 0, 0]))
        #expect(client.takeEvents() == [.response(streamID: id, HTTPResponse(status: 413))])
    }

    @Test func aResetWithAnErrorCodeOutsideTheRFCIsUnanswered() throws {
        let client = try HTTP2ClientSession()
        let id = try submit(client, "/3/device/01", body: [0x7B, 0x7D])
        try flushAll(client)
        try feed(
            client,
            RawFrames.frame(type: RawFrames.settings, flags: 0, stream: 0, payload: [])
                + RawFrames.frame(type: RawFrames.rstStream, flags: 0, stream: UInt32(id), payload: [0, 0, 0xde, 0xad]))
        #expect(client.takeEvents() == [.unanswered(streamID: id, errorCode: 0xdead)])
        #expect(HTTP2ErrorCode.name(0xdead) == "0xdead")
    }

    /// A request counts as written only once the transport took the last byte of its END_STREAM frame:
    /// before that, the server cannot have processed it and it may be sent again safely.
    @Test func requestsAreWrittenOnlyWhenTheirEndStreamFrameLeftCompletely() throws {
        let client = try HTTP2ClientSession(assumedPeerConcurrency: 100)
        let ids = try (0..<3).map { try submit(client, "/3/device/0\($0)", body: [0x7B, 0x7D]) }
        #expect(try client.prepareOutput())
        var total = 0
        client.withPendingOutput { bytes in
            total = bytes.count
            return bytes.count - 1
        }  // all but the last byte
        #expect(client.takeWrittenRequests() == Array(ids.prefix(2)))
        client.withPendingOutput { $0.count }
        #expect(client.takeWrittenRequests() == [ids[2]])
        #expect(total > 0)
        let headOnly = try submit(client, "/3/device/09", body: [])
        try flushAll(client)
        #expect(client.takeWrittenRequests() == [headOnly], "END_STREAM on HEADERS (no body) counts too")
    }

    @Test func errorCodeNames() {
        #expect(HTTP2ErrorCode.name(0) == "NO_ERROR")
        #expect(HTTP2ErrorCode.name(7) == "REFUSED_STREAM")
        #expect(HTTP2ErrorCode.name(0x99) == "0x99")
    }
}
