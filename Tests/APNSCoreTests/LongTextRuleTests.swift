import Testing

@testable import APNSCore

/// Strings and keys longer than `JSONReader.keptTextLimit` reach the rules cut to their start: a cut value
/// matches no known word, gets no "did you mean", and is quoted shortened; what `send` uses stays whole.
@Suite struct LongTextRuleTests {
    let long = String(repeating: "x", count: JSONReader.keptTextLimit + 1)
    let shown = String(repeating: "x", count: 37) + "..."

    @Test func aLongUnknownKeyIsShownShortenedInItsPathAndMessage() {
        let report = check(
            #"{"aps":{"alert":{"body":"hi","\#(long)":1},"sound":{"name":"a","\#(long)":1},"\#(long)":1}}"#)
        #expect(
            report.hasWarning("aps." + shown, "unknown aps key \"\(shown)\" is ignored by APNs"), "\(report.listing)")
        #expect(
            report.hasWarning("aps.alert." + shown, "unknown alert key \"\(shown)\" is ignored"), "\(report.listing)")
        #expect(
            report.hasWarning("aps.sound." + shown, "unknown sound key \"\(shown)\" is ignored"), "\(report.listing)")
        #expect(report.problems.allSatisfy { $0.message.utf8.count < 400 && $0.path.utf8.count < 100 })
    }

    @Test func aLongValueEqualsNoKnownWordAndGetsNoSuggestion() {
        // Folded (case and separators dropped) this is "update": a whole value would get "did you mean".
        let dashes = String(repeating: "-", count: JSONReader.keptTextLimit) + "update"
        let report = check(#"{"aps":{"event":"\#(dashes)","timestamp":1,"content-state":{}}}"#, type(.liveactivity))
        let event = report.at("aps.event")
        #expect(event.count == 1 && event.first?.message.contains("did you mean") == false, "\(report.listing)")
        #expect(event.first?.message.contains("(\(dashes.utf8.count) bytes)") == true, "\(report.listing)")

        let zeros = String(repeating: "0", count: JSONReader.keptTextLimit) + "5"
        // Its start is a number, the whole of it another: a cut value is not converted.
        let badge = check(#"{"aps":{"alert":"hi","badge":"\#(zeros)"}}"#)
        #expect(badge.hasError("aps.badge", "; use a count such as 1"), "\(badge.listing)")

        let channelID = String(repeating: "A", count: JSONReader.keptTextLimit + 4)
        let channel = check(
            #"{"aps":{"event":"start","timestamp":1,"content-state":{},"attributes-type":"T","attributes":{},"alert":"a","input-push-channel":"\#(channelID)"}}"#,
            type(.liveactivity))
        #expect(
            channel.hasError("aps.input-push-channel", "found \"\(String(repeating: "A", count: 37))...\""),
            "\(channel.listing)")
    }

    @Test func aLongSimulatorTargetBundleIsUsedWhole() {
        let bundle = "com.example." + long
        let payload = Payload(
            bytes: Array(#"{"Simulator Target Bundle":"\#(bundle)","aps":{"alert":"hi"}}"#.utf8), isAPNSFile: true)
        #expect(payload.simulatorTargetBundle == bundle)
        #expect(Payload(built: Array("{}".utf8), from: payload).simulatorTargetBundle == bundle)
    }
}
