import APNSCore
import APNSTestSupport
import Testing

@testable import APNSCtlCommands

/// The validator names settings neutrally (APNs headers); `validate` and `send` pass apnsctl's flags, so
/// their advice names the flag to use.
@Suite struct ValidationAdviceTests {
    private func messages(_ json: String, _ options: ValidationOptions) -> [String] {
        PayloadValidator.validate(Payload(bytes: Array(json.utf8), isAPNSFile: false), options: options).problems.map(
            \.message)
    }

    @Test func headerAdviceNamesTheFlags() {
        let background = #"{"aps":{"content-available":1}}"#
        let priority = messages(
            background, ValidationOptions(pushType: .background, priority: .immediate, settingNames: .apnsctl))
        #expect(priority.contains { $0.hasSuffix("use --priority 5 or leave it out") }, "\(priority)")
        let topic = messages(
            #"{"aps":{"alert":"x"}}"#, ValidationOptions(pushType: .voip, topic: "com.x", settingNames: .apnsctl))
        #expect(topic.contains { $0.hasSuffix("use --topic com.x.voip") }, "\(topic)")
        let type = messages(
            #"{"aps":{"alert":"x"}}"#, ValidationOptions(pushType: .alert, topic: "com.x.voip", settingNames: .apnsctl))
        #expect(type.contains { $0.hasSuffix("use --push-type voip or the bare bundle id") }, "\(type)")
    }

    @Test func validatePrintsFlagsInItsAdvice() throws {
        let r = try InProcess.apnsctl(
            [
                "validate", "--push-type", "background", "Payloads/invalid/background-with-alert.json",
                "Payloads/invalid/too-large-pretty.json",
            ], directory: Repository.root)
        #expect(r.status == 65)
        #expect(r.stdout.contains("send an alert push (--push-type alert)"), "\(r.stdout)")
        let size = try InProcess.apnsctl(
            ["validate", "Payloads/invalid/too-large-pretty.json"], directory: Repository.root)
        #expect(size.stdout.contains("fits: send it with --minify"), "\(size.stdout)")
    }
}
