import APNSCore
import APNSPlatform
import Testing

@testable import APNSClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The broadcast and channel request builders (APNS.md §11) and the parsing of their answers.
@Suite struct BroadcastRequestTests {
    static let requestID = "0f8e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b"

    private func names(_ r: APNSRequest) -> [String] { r.headers.map(\.name) }

    @Test func broadcastHasChannelPushTypeExpirationPriorityAndNoTopic() {
        let b = BroadcastRequest(bundleID: "com.example.demo", bearerToken: "eyJ.x.y", payload: Array("{}".utf8))
        let r = b.request(channel: "dHJ5IG1lIQ==", requestID: Self.requestID)
        #expect(r.method == "POST")
        #expect(r.path == "/4/broadcasts/apps/com.example.demo")
        #expect(
            names(r) == [
                "authorization", "apns-channel-id", "apns-push-type", "apns-expiration", "apns-priority",
                "apns-request-id", "content-type", "content-length",
            ])
        #expect(r.headers.value(of: "apns-channel-id") == "dHJ5IG1lIQ==")
        #expect(r.headers.value(of: "apns-push-type") == "liveactivity")
        #expect(r.headers.value(of: "apns-expiration") == "0")
        #expect(r.headers.value(of: "apns-priority") == "10")
        #expect(r.headers.value(of: "apns-request-id") == Self.requestID)
        #expect(r.headers.value(of: "apns-topic") == nil)
        #expect(r.body == Array("{}".utf8))
    }

    @Test func eachChannelGetsItsOwnLowercaseRequestID() {
        let jobs = BroadcastRequest(bundleID: "b", payload: []).jobs(channels: ["YQ==", "Yg=="])
        #expect(jobs.map(\.target) == [.channel("YQ=="), .channel("Yg==")])
        let ids = jobs.compactMap { $0.request.headers.value(of: "apns-request-id") }
        #expect(ids.count == 2 && ids[0] != ids[1])
        #expect(ids.allSatisfy { UUIDString.isCanonical($0) && $0 == $0.lowercased() })
        #expect(jobs.allSatisfy { $0.request.headers.value(of: "authorization") == nil })
    }

    @Test func createPostsThePolicyAndPushType() {
        let r = ChannelRequest(.create(.mostRecent), bundleID: "com.example.demo", requestID: Self.requestID).request
        #expect(r.method == "POST")
        #expect(r.path == "/1/apps/com.example.demo/channels")
        #expect(String(decoding: r.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(r.headers.value(of: "apns-request-id") == Self.requestID)
        #expect(r.headers.value(of: "apns-channel-id") == nil)
        #expect(r.headers.value(of: "content-length") == String(r.body.count))
    }

    @Test func readDeleteAndListCarryTheIdInAHeader() {
        let read = ChannelRequest(.read(channel: "YWJj"), bundleID: "a.b", bearerToken: "t").request
        #expect(read.method == "GET" && read.path == "/1/apps/a.b/channels" && read.body.isEmpty)
        #expect(read.headers.value(of: "apns-channel-id") == "YWJj")
        #expect(read.headers.value(of: "authorization") == "bearer t")
        let delete = ChannelRequest(.delete(channel: "YWJj"), bundleID: "a.b").request
        #expect(delete.method == "DELETE" && delete.path == "/1/apps/a.b/channels")
        #expect(delete.headers.value(of: "apns-channel-id") == "YWJj")
        let list = ChannelRequest(.list, bundleID: "a.b").request
        #expect(list.method == "GET" && list.path == "/1/apps/a.b/all-channels")
        #expect(list.headers.value(of: "apns-channel-id") == nil)
        #expect(UUIDString.isCanonical(list.headers.value(of: "apns-request-id") ?? ""))
    }

    @Test func created201HasTheIdInAHeaderAndNoBody() {
        let response = HTTPResponse(
            status: 201,
            headers: [
                HeaderField("apns-request-id", Self.requestID),
                HeaderField("apns-channel-id", "dHJ5IG1lIQ=="),
            ])
        let result = PushResult(target: .channel(""), response: response, durationMs: 1)
        #expect(result.outcome == .accepted)
        #expect(result.apnsRequestID == Self.requestID)
        #expect(result.reason == nil)
        let answer = ChannelAnswer(response)
        #expect(answer.channelID == "dHJ5IG1lIQ==")
        #expect(answer.storage == nil && answer.channels == nil)
    }

    @Test func deleted204IsASuccessWithNothingElse() {
        let result = PushResult(
            target: .channel("YWJj"), response: HTTPResponse(status: 204), durationMs: 1,
            sentRequestID: Self.requestID)
        #expect(result.outcome == .accepted)
        #expect(result.apnsRequestID == Self.requestID)  // the one sent, since the answer had none
        #expect(ChannelAnswer(HTTPResponse(status: 204)) == ChannelAnswer(HTTPResponse(status: 204, body: [])))
    }

    @Test func read200AndList200HaveJSONBodies() {
        let read = ChannelAnswer(
            HTTPResponse(status: 200, body: Array(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.utf8)))
        #expect(read.storage == ChannelStorage.none)
        #expect(read.pushType == "LiveActivity")
        let list = ChannelAnswer(HTTPResponse(status: 200, body: Array(#"{"channels":["YQ==","Yg==",5]}"#.utf8)))
        #expect(list.channels == ["YQ==", "Yg=="])
        let odd = ChannelAnswer(
            HTTPResponse(status: 200, body: Array(#"{"message-storage-policy":7,"channels":"x"}"#.utf8)))
        #expect(odd.storage == nil && odd.channels == nil)
        #expect(ChannelAnswer(HTTPResponse(status: 200, body: Array("<html>".utf8))).channels == nil)
    }

    @Test func rejectionKeepsReasonAndRequestID() {
        let r = PushResult(
            target: .channel("YWJj"),
            response: HTTPResponse(
                status: 400, headers: [HeaderField("apns-request-id", "r-1")],
                body: Array(#"{"reason":"ChannelNotRegistered"}"#.utf8)), durationMs: 1)
        #expect(r.outcome == .rejected)
        #expect(r.reason == .known(.channelNotRegistered))
        #expect(r.apnsRequestID == "r-1")
    }

    @Test func managementHosts() {
        #expect(
            PushEndpoint(channelManagement: .sandbox).url == "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        #expect(PushEndpoint(channelManagement: .production).url == "https://api-manage-broadcast.push.apple.com:2196")
    }
}
