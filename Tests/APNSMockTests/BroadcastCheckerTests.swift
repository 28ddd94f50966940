import APNSCore
import APNSHTTP2
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSMock

/// The mock's broadcast and channel management checks (APNS.md §11), one fault per request, and its
/// channel store on disk.
@Suite struct BroadcastCheckerTests {
    let scratch: TemporaryDirectory
    let store: ChannelStore
    let checker: BroadcastChecker
    let none: String
    let stored: String

    init() throws {
        scratch = try TemporaryDirectory(prefix: "channels")
        store = ChannelStore(directory: try PrivateDirectory.open(scratch.path), limit: 3)
        checker = BroadcastChecker(rules: rules, store: store)
        none = try #require(store.create(bundleID: "com.example.demo", environment: .sandbox, storage: .none))
        stored = try #require(store.create(bundleID: "com.example.demo", environment: .sandbox, storage: .mostRecent))
    }

    static let update = #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#

    private func send(
        _ headers: [(String, String)], body: String = update, token: String? = nil,
        tokenConnection: Bool = false
    ) -> MockDecision {
        request(
            "POST", "/4/broadcasts/apps/com.example.demo", headers, body: body, token: token,
            tokenConnection: tokenConnection)
    }

    private func request(
        _ method: String, _ path: String, _ headers: [(String, String)], body: String = update, token: String? = nil,
        tokenConnection: Bool = false
    ) -> MockDecision {
        var all = [HeaderField(":method", method), HeaderField(":path", path)]
        if let token { all.append(HeaderField("authorization", "bearer \(token)")) }
        all += headers.map { HeaderField($0.0, $0.1) }
        var auth = ConnectionAuthState(certificate: token == nil && !tokenConnection ? certificate : nil)
        var ids = MockIDGenerator()
        return checker.check(
            HTTP2ServerRequest(streamID: 1, headers: all, body: Array(body.utf8), bodySize: body.utf8.count),
            auth: &auth, now: now, ids: &ids)
    }

    private func broadcast(
        _ channel: String?, type: String? = "liveactivity", expiration: String? = "0",
        priority: String? = "10"
    ) -> [(String, String)] {
        var h: [(String, String)] = []
        if let channel { h.append(("apns-channel-id", channel)) }
        if let type { h.append(("apns-push-type", type)) }
        if let expiration { h.append(("apns-expiration", expiration)) }
        if let priority { h.append(("apns-priority", priority)) }
        return h
    }

    @Test func everyBroadcastFault() {
        #expect(send(broadcast(none)).status == 200)
        #expect(send(broadcast(stored, expiration: "1900000000")).status == 200)
        #expect(send(broadcast(none), token: "good").status == 200)
        let cases: [(APNSReason, MockDecision)] = [
            (.missingChannelId, send(broadcast(nil))),
            (.badChannelId, send(broadcast("not base64!"))),
            (.missingPushType, send(broadcast(none, type: nil))),
            (.invalidPushType, send(broadcast(none, type: "alert"))),
            (.badExpirationDate, send(broadcast(none, expiration: nil))),
            (.badExpirationDate, send(broadcast(none, expiration: "1900000000"))),
            (.badPriority, send(broadcast(none, priority: "7"))),
            (.channelNotRegistered, send(broadcast("YWJjZA=="))),
            (.payloadEmpty, send(broadcast(none), body: "")),
            (.payloadTooLarge, send(broadcast(none), body: "{\"a\":\"" + String(repeating: "x", count: 5200) + "\"}")),
            (.badRequestPayload, send(broadcast(none), body: "{")),
            (.topicMismatch, request("POST", "/4/broadcasts/apps/com.example.other", broadcast(none))),
            (.topicDisallowed, request("POST", "/4/broadcasts/apps/com.example.demo.voip", broadcast(none))),
            (.missingProviderToken, send(broadcast(none), tokenConnection: true)),
            (.invalidProviderToken, send(broadcast(none), token: "bad-signature")),
            (.duplicateHeaders, send(broadcast(none) + [("apns-priority", "10")])),
            (.badMessageId, send(broadcast(none) + [("apns-request-id", "nope")])),
            (.methodNotAllowed, request("GET", "/4/broadcasts/apps/com.example.demo", broadcast(none))),
            (.badPath, request("POST", "/4/broadcasts/apps/", broadcast(none))),
        ]
        for (reason, d) in cases {
            #expect(d.reason == reason, "expected \(reason.rawValue), got \(d.reason?.rawValue ?? "200")")
            #expect(d.broadcast != nil)
        }
    }

    @Test func managementAnswers() throws {
        let created = request(
            "POST", "/1/apps/com.example.demo/channels", [],
            body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(created.status == 201)
        let id = try #require(created.broadcast?.createdChannel)
        #expect(Broadcast.isChannelIDSyntax(id))
        #expect(created.body.isEmpty)
        let read = request("GET", "/1/apps/com.example.demo/channels", [("apns-channel-id", id)])
        #expect(read.status == 200)
        #expect(
            String(decoding: read.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        let list = request("GET", "/1/apps/com.example.demo/all-channels", [])
        #expect(String(decoding: list.body, as: UTF8.self) == "{\"channels\":[\"\(none)\",\"\(stored)\",\"\(id)\"]}")
        // The limit (3 here, 10,000 by default).
        let full = request(
            "POST", "/1/apps/com.example.demo/channels", [],
            body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(full.reason == .cannotCreateChannelConfig)
        #expect(request("DELETE", "/1/apps/com.example.demo/channels", [("apns-channel-id", id)]).status == 204)
        #expect(
            request("DELETE", "/1/apps/com.example.demo/channels", [("apns-channel-id", id)]).reason
                == .channelNotRegistered)
        #expect(request("GET", "/1/apps/com.example.demo/channels", []).reason == .missingChannelId)
        #expect(request("PUT", "/1/apps/com.example.demo/channels", []).reason == .methodNotAllowed)
        #expect(request("POST", "/1/apps/com.example.demo/all-channels", []).reason == .methodNotAllowed)
        #expect(request("GET", "/1/apps/com.example.demo/nothing", []).reason == .badPath)
        let bodies: [(String, APNSReason)] = [
            ("", .payloadEmpty), ("[", .badRequestPayload),
            (#"{"message-storage-policy":0}"#, .missingPushType),
            (#"{"message-storage-policy":0,"push-type":"alert"}"#, .invalidPushType),
            (#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#, .badRequestParams),
        ]
        for (body, reason) in bodies {
            #expect(request("POST", "/1/apps/com.example.demo/channels", [], body: body).reason == reason, "\(body)")
        }
    }

    @Test func channelsSurviveARestartAndStayInTheirEnvironment() throws {
        let again = ChannelStore(directory: try PrivateDirectory.open(scratch.path))
        #expect(again.list(bundleID: "com.example.demo", environment: .sandbox) == [none, stored])
        #expect(again.storage(of: stored, bundleID: "com.example.demo", environment: .sandbox) == .mostRecent)
        #expect(again.list(bundleID: "com.example.demo", environment: .production).isEmpty)
        #expect(again.list(bundleID: "com.example.other", environment: .sandbox).isEmpty)
    }

    /// Event loops create channels at the same time: channels.json must end with every one of them.
    @Test func concurrentCreatesAreAllSaved() throws {
        let scratch = try TemporaryDirectory(prefix: "channels-race")
        let store = ChannelStore(directory: try PrivateDirectory.open(scratch.path))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<25 { _ = store.create(bundleID: "com.example.demo", environment: .sandbox, storage: .none) }
        }
        #expect(store.list(bundleID: "com.example.demo", environment: .sandbox).count == 100)
        #expect(
            ChannelStore(directory: try PrivateDirectory.open(scratch.path)).list(
                bundleID: "com.example.demo", environment: .sandbox
            ).count == 100)
    }

    @Test func aDamagedFileStartsEmpty() throws {
        let damaged = try TemporaryDirectory(prefix: "channels-damaged")
        try damaged.write("channels.json", "not json")
        #expect(
            ChannelStore(directory: try PrivateDirectory.open(damaged.path)).list(
                bundleID: "com.example.demo", environment: .sandbox
            ).isEmpty)
    }
}
