import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `curl --http2` (a client we did not write) against the mock's channel management and broadcast paths:
/// statuses, headers and bodies as APNS.md §11 describes them.
@Suite struct BroadcastCurlTests {
    static let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{}}}"#

    private func curl(
        _ mock: InProcessMock, _ path: String, method: String = "POST", headers: [String] = [],
        body: String? = nil, token: String? = nil
    ) throws -> CurlHTTP2.Response {
        var h = headers
        if let token { h.append("authorization: bearer \(token)") }
        return try CurlHTTP2.request(
            mock.endpoint + path, method: method, headers: h, body: body, caFile: mock.caFile,
            certificate: token == nil ? mock.certificate : nil)
    }

    /// The value of response header `name` (lowercased by CurlHTTP2).
    private func header(_ r: CurlHTTP2.Response, _ name: String) -> String? {
        for line in r.headers.split(whereSeparator: \.isNewline) where line.hasPrefix(name + ":") {
            return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    @Test func managementPaths() throws {
        let mock = try InProcessMock()
        let create = try curl(
            mock, "/1/apps/com.example.demo/channels",
            headers: ["apns-request-id: 0f8e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b"],
            body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(create.status == 201)
        #expect(create.body.isEmpty)
        #expect(header(create, "apns-request-id") == "0f8e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b")
        // curl lowercases headers in this helper; the id itself comes from the raw body of a list.
        #expect(header(create, "apns-channel-id") != nil)

        let list = try curl(mock, "/1/apps/com.example.demo/all-channels", method: "GET")
        #expect(list.status == 200)
        #expect(header(list, "content-type") == "application/json")
        #expect(UUIDString.isCanonical(header(list, "apns-request-id") ?? ""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [String: Any])
        let ids = try #require(object["channels"] as? [String])
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        #expect(header(create, "apns-channel-id") == id.lowercased())

        let read = try curl(
            mock, "/1/apps/com.example.demo/channels", method: "GET", headers: ["apns-channel-id: \(id)"])
        #expect(read.status == 200)
        #expect(read.body == #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)

        let sent = try curl(
            mock, "/4/broadcasts/apps/com.example.demo",
            headers: [
                "apns-channel-id: \(id)", "apns-push-type: liveactivity", "apns-expiration: 0", "apns-priority: 10",
            ],
            body: Self.update)
        #expect(sent.status == 200)
        #expect(sent.body.isEmpty)
        #expect(UUIDString.isCanonical(header(sent, "apns-request-id") ?? ""))
        #expect(UUIDString.isCanonical(header(sent, "apns-unique-id") ?? ""))
        #expect(header(sent, "apns-id") == nil)

        let deleted = try curl(
            mock, "/1/apps/com.example.demo/channels", method: "DELETE", headers: ["apns-channel-id: \(id)"])
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        #expect(header(deleted, "apns-request-id") != nil)
        let gone = try curl(
            mock, "/1/apps/com.example.demo/channels", method: "GET", headers: ["apns-channel-id: \(id)"])
        #expect(gone.status == 400)
        #expect(gone.body == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(header(gone, "content-type") == "application/json")
    }

    /// One fault per request; each answer has its documented status, `{"reason":…}` and an `apns-request-id`.
    @Test func broadcastReasons() throws {
        let mock = try InProcessMock()
        let create = try curl(
            mock, "/1/apps/com.example.demo/channels", body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#
        )
        let list = try curl(mock, "/1/apps/com.example.demo/all-channels", method: "GET")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [String: [String]])?["channels"]?.first)
        #expect(create.status == 201)
        let good = [
            "apns-channel-id: \(id)", "apns-push-type: liveactivity", "apns-expiration: 0", "apns-priority: 10",
        ]
        func without(_ name: String) -> [String] { good.filter { !$0.hasPrefix(name + ":") } }
        func replacing(_ name: String, _ value: String) -> [String] { without(name) + ["\(name): \(value)"] }
        let path = "/4/broadcasts/apps/com.example.demo"
        let cases: [(APNSReason, CurlHTTP2.Response)] = [
            (.missingChannelId, try curl(mock, path, headers: without("apns-channel-id"), body: Self.update)),
            (
                .badChannelId,
                try curl(mock, path, headers: replacing("apns-channel-id", "not*base64"), body: Self.update)
            ),
            (
                .channelNotRegistered,
                try curl(mock, path, headers: replacing("apns-channel-id", "YWJjZA=="), body: Self.update)
            ),
            (.missingPushType, try curl(mock, path, headers: without("apns-push-type"), body: Self.update)),
            (.invalidPushType, try curl(mock, path, headers: replacing("apns-push-type", "alert"), body: Self.update)),
            (
                .badExpirationDate,
                try curl(mock, path, headers: replacing("apns-expiration", "1900000000"), body: Self.update)
            ),
            (.badPriority, try curl(mock, path, headers: replacing("apns-priority", "7"), body: Self.update)),
            (.badMessageId, try curl(mock, path, headers: good + ["apns-request-id: nope"], body: Self.update)),
            (.payloadEmpty, try curl(mock, path, headers: good, body: "")),
            (
                .payloadTooLarge,
                try curl(mock, path, headers: good, body: "{\"a\":\"" + String(repeating: "x", count: 5200) + "\"}")
            ),
            (.badRequestPayload, try curl(mock, path, headers: good, body: "{")),
            (.topicMismatch, try curl(mock, "/4/broadcasts/apps/com.example.other", headers: good, body: Self.update)),
            (
                .topicDisallowed,
                try curl(mock, "/4/broadcasts/apps/com.example.demo.voip", headers: good, body: Self.update)
            ),
            (
                .missingProviderToken,
                try CurlHTTP2.request(mock.endpoint + path, headers: good, body: Self.update, caFile: mock.caFile)
            ),
            (.invalidProviderToken, try curl(mock, path, headers: good, body: Self.update, token: "not.a.jwt")),
            (.methodNotAllowed, try curl(mock, path, method: "PUT", headers: good, body: Self.update)),
            (.badPath, try curl(mock, "/1/apps/com.example.demo/other", method: "GET")),
            (
                .badRequestParams,
                try curl(
                    mock, "/1/apps/com.example.demo/channels",
                    body: #"{"message-storage-policy":9,"push-type":"LiveActivity"}"#)
            ),
        ]
        for (reason, r) in cases {
            #expect(r.status == reason.status, "\(reason.rawValue): \(r.status) \(r.body)")
            #expect(r.body == "{\"reason\":\"\(reason.rawValue)\"}", "\(reason.rawValue): \(r.body)")
            #expect(header(r, "apns-request-id") != nil, "\(reason.rawValue)")
        }
    }
}
