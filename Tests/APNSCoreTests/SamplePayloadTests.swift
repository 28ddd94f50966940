import APNSTestSupport
import Foundation
import Testing

@testable import APNSCore

/// Every file in Payloads/ is valid with its documented push type; every file in Payloads/invalid/
/// fails with the problem Payloads/README.md documents for it.
@Suite struct SamplePayloadTests {
    /// The valid samples and the push type the README gives them (nil = inferred, checked below).
    static let valid: [(String, PushType?, PushType)] = [
        ("alert.json", nil, .alert), ("alert-title-subtitle-body.json", nil, .alert), ("localized.json", nil, .alert),
        ("badge.json", nil, .alert), ("sound.json", nil, .alert), ("critical-alert.json", nil, .alert),
        ("background.json", nil, .background), ("mutable-content.json", nil, .alert),
        ("thread-category.json", nil, .alert),
        ("time-sensitive.json", nil, .alert), ("relevance-score.json", nil, .alert), ("legacy-256.json", nil, .alert),
        ("demo.apns", nil, .alert), ("voip.json", .voip, .voip),
        ("liveactivity-start.json", .liveactivity, .liveactivity),
        ("liveactivity-update.json", .liveactivity, .liveactivity),
        ("liveactivity-end.json", .liveactivity, .liveactivity),
        ("widgets.json", .widgets, .widgets), ("mdm.json", .mdm, .mdm),
    ]

    /// The invalid samples: options, path and message start, as in Payloads/README.md.
    static let invalid: [(String, ValidationOptions, String, String)] = [
        ("badge-string.json", .init(), "aps.badge", "badge must be a non-negative integer, found string \"5\""),
        (
            "background-with-alert.json", .init(pushType: .background), "aps.alert",
            "background pushes cannot carry alert"
        ),
        ("too-large.json", .init(), "(root)", "payload is 4194 bytes, 98 over the 4096-byte limit"),
        ("too-large-pretty.json", .init(), "(root)", "payload is 6780 bytes, 2684 over the 4096-byte limit"),
        ("trailing-comma.json", .init(), "(root)", "not valid JSON: trailing comma before '}'"),
        (
            "aps-key-typo.json", .init(strict: true), "aps.bagde",
            "unknown aps key \"bagde\" is ignored by APNs; did you mean \"badge\"?"
        ),
        (
            "alert-key-typo.json", .init(strict: true), "aps.alert.titel",
            "unknown alert key \"titel\" is ignored; did you mean \"title\"?"
        ),
        ("aps-missing.json", .init(), "aps", "aps is missing"),
        (
            "content-available-true.json", .init(), "aps.content-available",
            "content-available must be the number 1, found boolean true"
        ),
        (
            "interruption-level-typo.json", .init(), "aps.interruption-level",
            "interruption-level must be one of passive, active, time-sensitive, critical"
        ),
        ("relevance-score-range.json", .init(), "aps.relevance-score", "relevance-score must be between 0 and 1"),
        ("comment.json", .init(), "(root)", "not valid JSON: comments are not allowed in JSON"),
        ("single-quotes.json", .init(), "(root)", "not valid JSON: expected a string key in double quotes"),
        ("smart-quotes.json", .init(), "(root)", "not valid JSON: expected a string key in double quotes"),
        ("latin1.json", .init(), "(root)", "not valid JSON: invalid UTF-8"),
        ("not-an-object.json", .init(), "(root)", "the payload must be a JSON object, found array"),
        ("empty.json", .init(), "(root)", "payload is empty"),
        ("duplicate-key.json", .init(strict: true), "aps.alert", "duplicate key \"alert\""),
        (
            "loc-args-not-strings.json", .init(), "aps.alert.loc-args[1]",
            "every element must be a string, found number 42"
        ),
        ("critical-volume.json", .init(), "aps.sound.volume", "volume must be from 0 (silent) to 1 (full), found 2"),
        (
            "liveactivity-start-incomplete.json", .init(pushType: .liveactivity), "aps.attributes-type",
            "a Live Activity start needs \"attributes-type\""
        ),
        (
            "liveactivity-timestamp-ms.json", .init(pushType: .liveactivity, strict: true), "aps.timestamp",
            "timestamp 1762166400000 looks like milliseconds"
        ),
        (
            "widgets-missing-content-changed.json", .init(pushType: .widgets), "aps.content-changed",
            "widgets pushes need \"content-changed\": true"
        ),
    ]

    @Test(arguments: valid)
    func validSamplePasses(file: String, given: PushType?, expected: PushType) throws {
        let payload = try Payload.load(path: Repository.path("Payloads/" + file))
        let report = PayloadValidator.validate(payload, options: ValidationOptions(pushType: given))
        #expect(report.problems.isEmpty, "\(file):\n\(report.listing)")
        #expect(report.pushType == expected)
    }

    /// 256 bytes: the binary API's limit, every payload before iOS 8 and on OS X (`--size-limit 256`).
    @Test func legacySampleFitsTheLegacyLimit() throws {
        let payload = try Payload.load(path: Repository.path("Payloads/legacy-256.json"))
        let legacy = try #require(SizeLimit.parse("256"))
        #expect(PayloadValidator.validate(payload, options: ValidationOptions(sizeLimit: legacy)).problems.isEmpty)
    }

    @Test func demoAPNSTargetsTheMockApp() throws {
        let payload = try Payload.load(path: Repository.path("Payloads/demo.apns"))
        #expect(payload.simulatorTargetBundle == "com.example.demo")
        #expect(!String(decoding: payload.body, as: UTF8.self).contains("Simulator Target Bundle"))
    }

    @Test(arguments: invalid)
    func invalidSampleFailsAsDocumented(file: String, options: ValidationOptions, path: String, message: String) throws
    {
        let payload = try Payload.load(path: Repository.path("Payloads/invalid/" + file))
        let report = PayloadValidator.validate(payload, options: options)
        #expect(report.hasErrors, "\(file) passed")
        #expect(
            report.errors.contains { $0.path == path && $0.message.hasPrefix(message) }, "\(file):\n\(report.listing)")
        if options.strict {
            let lenient = PayloadValidator.validate(payload, options: ValidationOptions(pushType: options.pushType))
            #expect(!lenient.hasErrors, "\(file) should only warn without --strict")
        }
    }

    @Test func everySampleIsListedInTheTestsAndTheReadme() throws {
        let readme = try String(contentsOfFile: Repository.path("Payloads/README.md"), encoding: .utf8)
        let fm = FileManager.default
        let top = try fm.contentsOfDirectory(atPath: Repository.path("Payloads")).filter {
            $0.hasSuffix(".json") || $0.hasSuffix(".apns")
        }
        let bad = try fm.contentsOfDirectory(atPath: Repository.path("Payloads/invalid"))
        #expect(Set(top) == Set(Self.valid.map(\.0)))
        #expect(Set(bad) == Set(Self.invalid.map(\.0)))
        #expect(top.count >= 15)
        for (file, given, _) in Self.valid {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(file)` |") }
            #expect(row != nil, "README lacks \(file)")
            if let given {
                #expect(row?.contains("`--push-type \(given.rawValue)`") == true, "README push type of \(file)")
            }
        }
        for (file, _, path, message) in Self.invalid {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `invalid/\(file)` |") }
            #expect(row?.contains("`\(path)`") == true && row?.contains(message) == true, "README row of \(file)")
        }
    }
}
