import Testing

@testable import APNSCore

/// Broadcast payloads (APNS.md §11) and the iOS 18 start-push inputs of §4.
@Suite struct BroadcastRuleTests {
    static let update = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"score":1}}}"#
    static let start =
        #"{"aps":{"event":"start","timestamp":1790000000,"content-state":{},"alert":{"title":"Go"},"attributes-type":"Match","attributes":{}}}"#

    static var broadcast: ValidationOptions {
        var o = ValidationOptions(pushType: .liveactivity)
        o.broadcast = true
        return o
    }

    @Test func updateAndEndMayBeBroadcast() {
        #expect(check(Self.update, Self.broadcast).problems.isEmpty)
        let end = #"{"aps":{"event":"end","timestamp":1790000000,"content-state":{},"dismissal-date":1790003600}}"#
        #expect(check(end, Self.broadcast).problems.isEmpty)
    }

    @Test func startCannotBeBroadcast() {
        let r = check(Self.start, Self.broadcast)
        #expect(r.hasError("aps.event", "a broadcast cannot start a Live Activity"), "\(r.listing)")
        #expect(r.hasError("aps.event", "input-push-channel"))
        // The same payload to a device is fine.
        #expect(!check(Self.start, type(.liveactivity)).hasErrors)
    }

    @Test func broadcastLimitIs5120() {
        let padding = String(repeating: "x", count: 4500)
        let big = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"s":"\#(padding)"}}}"#
        let r = check(big, Self.broadcast)
        #expect(r.limit == 5120)
        #expect(!r.hasErrors, "\(r.listing)")
        #expect(check(big, type(.liveactivity)).hasErrors)
        let huge = #"{"aps":{"event":"update","timestamp":1790000000,"content-state":{"s":"\#(padding)\#(padding)"}}}"#
        #expect(
            check(huge, Self.broadcast).hasError("(root)", "over the 5120-byte limit for broadcasts (APNs answers 413"))
    }

    @Test func inputPushChannelMustBeBase64() {
        let good = Self.start.replacingFirst(
            "\"attributes\":{}", "\"attributes\":{},\"input-push-channel\":\"dHJ5IG1lIQ==\"")
        #expect(check(good, type(.liveactivity)).problems.isEmpty, "\(check(good, type(.liveactivity)).listing)")
        for bad in ["\"\"", "\"not base64!\"", "12"] {
            let p = Self.start.replacingFirst("\"attributes\":{}", "\"attributes\":{},\"input-push-channel\":\(bad)")
            #expect(
                check(p, type(.liveactivity)).at("aps.input-push-channel").contains { $0.severity == .error }, "\(bad)")
        }
    }

    @Test func inputsBelongToStartPushes() {
        let both = Self.start.replacingFirst(
            "\"attributes\":{}", "\"attributes\":{},\"input-push-channel\":\"YWJj\",\"input-push-token\":1")
        let r = check(both, type(.liveactivity))
        #expect(r.hasWarning("aps.input-push-channel", "Apple does not say a start push can do both"))
        #expect(!r.hasErrors)
        let onUpdate = Self.update.replacingFirst("\"event\"", "\"input-push-token\":1,\"event\"")
        #expect(
            check(onUpdate, type(.liveactivity)).hasWarning("aps.input-push-token", "used only when event is start"))
        let badToken = Self.start.replacingFirst("\"attributes\":{}", "\"attributes\":{},\"input-push-token\":true")
        #expect(check(badToken, type(.liveactivity)).hasError("aps.input-push-token", "must be the number 1"))
    }

    @Test func vocabulary() {
        #expect(Broadcast.bundleID(fromTopic: "com.example.demo.push-type.liveactivity") == "com.example.demo")
        #expect(Broadcast.bundleID(fromTopic: "com.example.demo") == "com.example.demo")
        #expect(Broadcast.isChannelIDSyntax("dHJ5IG1lIQ=="))
        #expect(!Broadcast.isChannelIDSyntax("dHJ5IG1lIQ="))
        #expect(!Broadcast.isChannelIDSyntax("a=b"))
        // A whole number of 4-character groups: an id cut at its + or = is not one.
        #expect(!Broadcast.isChannelIDSyntax("FJ3RaJZYhGWGI7L"))
        #expect(Broadcast.isChannelIDSyntax("FJ3RaJZYhGWGI7L+kIkgpQ=="))
        #expect(!Broadcast.isChannelIDSyntax(""))
        #expect(ChannelStorage(name: "most-recent") == .mostRecent)
        #expect(ChannelStorage(name: "None") == ChannelStorage.none)
        #expect(ChannelStorage(name: "some") == nil)
    }
}

extension String {
    /// `self` with the first `target` replaced.
    func replacingFirst(_ target: String, _ replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }
}
