// The payload fuzz target: every public entry point of the JSON reader and payload validator on the same
// bytes, plus invariants that must hold for any input. scripts/fuzz.sh compiles it with Sources/APNSCore for
// libFuzzer (where `fuzzCheck` traps); the FuzzTargetTests test target runs it in `make test` (where it records
// an issue).
#if canImport(APNSCore)
    @testable import APNSCore
#endif

/// Pieces of JSON and of APNs payloads the mutator splices in.
let payloadFuzzTokens = [
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\uD800", "\\uDC00", "true", "false", "null",
    "-", "0", "1", "1.0", "1e400", "99999999999999999999", "\"aps\"", "\"alert\"", "\"badge\"",
    "\"content-available\"", "\"sound\"", "\"event\"", "\"start\"", "\"mdm\"", " ", "\n", "//", "'",
    String(repeating: "[", count: 600),
]

/// Runs the reader, compactor, `.apns` processing and validator on `bytes`, checking invariants.
func fuzzOne(_ bytes: [UInt8]) {
    var parsed: JSONValue?
    do {
        parsed = try JSONReader.parse(bytes)
    } catch {
        fuzzCheck(
            error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside 0...\(bytes.count)")
        fuzzCheck(error.line >= 1 && error.column >= 1, "error position \(error.line):\(error.column)")
        fuzzCheck(!error.message.isEmpty && !error.message.contains("\n"), "error message not one line")
        fuzzCheck(JSONCompactor.minify(bytes) == nil, "minify accepted what parse rejected")
    }
    if let root = parsed {
        fuzzCheck(root.start >= 0 && root.end <= bytes.count && root.start < root.end, "root range")
        guard let compact = JSONCompactor.minify(bytes) else { return fuzzCheck(false, "minify rejected valid JSON") }
        fuzzCheck(compact.count <= bytes.count, "minified is longer")
        fuzzCheck(JSONCompactor.minify(compact) == compact, "minify is not idempotent")
        if case .string(let s) = root.kind {
            let again = try? JSONReader.parse(Array(JSONWriter.quoted(s).utf8))
            fuzzCheck(again?.string == s, "JSONWriter.quoted does not round-trip")
        }
        if root.isObject {
            let apns = Payload(bytes: bytes, isAPNSFile: true)
            fuzzCheck((try? JSONReader.parse(apns.body))?.isObject == true, ".apns body is not a JSON object")
        }
        // Leaving out the top-level members the rules do not read changes nothing about repeated keys.
        let all = try? JSONReader.parseCollapsingDuplicates(bytes)
        let kept = try? JSONReader.parseCollapsingDuplicates(bytes, keeping: RootMembersRead.filter())
        fuzzCheck(all?.1.count == kept?.1.count, "repeated keys counted differently with members left out")
        fuzzCheck(
            all?.1.listed.map { "\($0.path) \($0.keyStart) \($0.firstKeyStart)" }
                == kept?.1.listed.map { "\($0.path) \($0.keyStart) \($0.firstKeyStart)" },
            "repeated keys listed differently")
    }
    for isAPNS in [false, true] {
        let payload = Payload(bytes: bytes, isAPNSFile: isAPNS)
        let optionSets = [
            ValidationOptions(),
            ValidationOptions(pushType: .background, priority: .immediate, topic: "com.example.demo"),
            ValidationOptions(pushType: .liveactivity, sizeLimit: 256, strict: true),
            ValidationOptions(pushType: .mdm),
            ValidationOptions(topic: "com.example.demo.voip"),
        ]
        for options in optionSets {
            let report = PayloadValidator.validate(payload, options: options)
            fuzzCheck(report.size == payload.body.count, "size is not the body's")
            for p in report.problems {
                fuzzCheck(p.line >= 1 && p.column >= 1, "problem position \(p.line):\(p.column)")
                fuzzCheck(!p.message.isEmpty && !p.message.contains("\n"), "problem message not one line: \(p.message)")
                fuzzCheck(!p.path.isEmpty, "empty path")
            }
            if options.strict {
                fuzzCheck(report.problems.allSatisfy { $0.severity == .error }, "strict kept a warning")
            }
        }
        _ = payload.minified()
    }
}
