import Testing

@testable import APNSCore

/// Size is the byte count of what would be sent, against 256 / 2 KB / 4 KB / 5 KB.
@Suite struct SizeRuleTests {
    /// `{"aps":{"alert":"xxx…"}}` of exactly `size` bytes.
    func payload(ofSize size: Int, filler: String = "x") -> String {
        let text = "{\"aps\":{\"alert\":\"" + String(repeating: filler, count: size - 20) + "\"}}"
        return text
    }

    @Test(arguments: [
        (PushType.alert, nil as Int?, 4096), (.alert, nil, 4097), (.voip, nil, 5120), (.voip, nil, 5121),
        (.alert, 256, 256), (.alert, 256, 257), (.alert, 2048, 2048), (.alert, 2048, 2049),
        (.background, nil, 4097), (.liveactivity, 5120, 5120),
    ])
    func boundaries(pushType: PushType, limit: Int?, size: Int) {
        let json = payload(ofSize: size)
        #expect(json.utf8.count == size)
        let report = check(json, ValidationOptions(pushType: pushType, sizeLimit: limit))
        let expectedLimit = limit ?? (pushType == .voip ? 5120 : 4096)
        #expect(report.size == size)
        #expect(report.limit == expectedLimit)
        let sizeErrors = report.at("(root)").filter {
            $0.severity == .error && $0.message.hasPrefix("payload is \(size) bytes")
        }
        #expect(sizeErrors.count == (size > expectedLimit ? 1 : 0), "\(report.listing)")
        if size > expectedLimit {
            #expect(
                sizeErrors.first?.message.contains("\(size - expectedLimit) over the \(expectedLimit)-byte limit")
                    == true)
            #expect(sizeErrors.first?.line == 1 && sizeErrors.first?.column == 1)
        }
    }

    @Test func messageSaysWhetherMinifiedWouldFit() {
        let spaced = "{\"aps\":{\"alert\":\"hi\"}" + String(repeating: " ", count: 300) + "}"
        let fits = check(spaced, ValidationOptions(sizeLimit: 256))
        #expect(
            fits.hasError("(root)", "minified it is 22 bytes and fits: send it with minified JSON"), "\(fits.listing)")
        let big = payload(ofSize: 300)
        let compact = check(big, ValidationOptions(sizeLimit: 256))
        #expect(compact.hasError("(root)", "already compact"))
        let prettyBig = "{ \"aps\" : { \"alert\" : \"" + String(repeating: "x", count: 280) + "\" } }"
        let still = check(prettyBig, ValidationOptions(sizeLimit: 256))
        #expect(still.hasError("(root)", "even minified it is 300 bytes, 44 over: shorten it"), "\(still.listing)")
        #expect(
            !check(big, ValidationOptions(sizeLimit: 256)).hasError("(root)", "for alert pushes"),
            "an explicit limit is not the push type's")
        #expect(
            check(payload(ofSize: 4097)).hasError(
                "(root)", "the 4096-byte limit for alert pushes (APNs answers 413 PayloadTooLarge)"))
    }

    /// Python's json.dumps writes "é" as `\u00e9` (6 bytes for 2), an emoji as a surrogate pair (12 for 4): a payload
    /// over the limit that fits written plainly was told to "shorten it".
    @Test func escapesOfNonASCIICharactersThatWouldFitPlainlyAreSaid() {
        let escaped = "{\"aps\":{\"alert\":\"" + String(repeating: "\\u00e9", count: 100) + "\"}}"
        let plain = check(escaped, ValidationOptions(sizeLimit: 256))
        #expect(
            plain.hasError(
                "(root)",
                "payload is 620 bytes, 364 over the 256-byte limit set with ValidationOptions.sizeLimit (APNs itself takes up to 4096); its \\u escapes of non-ASCII characters take 400 bytes more than the characters themselves: written as UTF-8 (Python: json.dumps(..., ensure_ascii=False); jq without -a) it is 220 bytes and fits"
            ), "\(plain.listing)")
        // Indented as json.dumps(indent=2) writes it: plainly and minified.
        let pretty =
            "{\n  \"aps\": {\n    \"alert\": \"" + String(repeating: "\\ud83d\\ude00", count: 20) + "\"\n  }\n}"
        let both = check(pretty, ValidationOptions(sizeLimit: 100))
        #expect(both.hasError("(root)", "take 160 bytes more than the characters themselves"), "\(both.listing)")
        #expect(both.hasError("(root)", "and minified (minified JSON) it is 100 bytes and fits"), "\(both.listing)")
        // An escaped backslash before a u and escapes of ASCII characters save nothing: the advice stays.
        let none = "{\"aps\":{\"alert\":\"" + String(repeating: "\\\\u00e9\\u0041", count: 20) + "\"}}"
        #expect(check(none, ValidationOptions(sizeLimit: 256)).hasError("(root)", "already compact"))
    }

    @Test func countsUTF8BytesAndEscapesAsWritten() {
        // "é" is 2 bytes, "\u00e9" is 6: the limit applies to the bytes sent, not to characters.
        let accented = "{\"aps\":{\"alert\":\"" + String(repeating: "é", count: 118) + "\"}}"
        #expect(check(accented).size == 20 + 236)
        #expect(!check(accented, ValidationOptions(sizeLimit: 256)).hasErrors)
        let escaped = "{\"aps\":{\"alert\":\"" + String(repeating: "\\u00e9", count: 40) + "\"}}"
        #expect(check(escaped).size == 20 + 240)
        #expect(check(escaped, ValidationOptions(sizeLimit: 256)).hasError("(root)", "260 bytes, 4 over"))
    }

    /// Only a payload over APNs' own limit is promised a 413; a stricter custom limit says whose it is.
    @Test func customLimitSaysWhoseLimitItIs() {
        let body = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 5000) + "\"}}"
        #expect(
            check(body, ValidationOptions(sizeLimit: 4096)).hasError(
                "(root)", "over the 4096-byte limit (APNs answers 413 PayloadTooLarge)"))
        #expect(
            check(body, ValidationOptions(pushType: .voip, sizeLimit: 2048))
                .hasError(
                    "(root)",
                    "over the 2048-byte limit set with ValidationOptions.sizeLimit (APNs itself takes up to 5120)"))
    }

    /// A limit raised past APNs' own (`--size-limit 5k` for an alert push) passed what APNs answers 413: a warning
    /// says so (an error with --strict), naming both limits.
    @Test func aLimitAboveAPNsOwnWarnsOverIt() {
        let body = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 4100) + "\"}}"
        let report = check(body, ValidationOptions(sizeLimit: 5120))
        #expect(!report.hasErrors)
        #expect(
            report.hasWarning(
                "(root)",
                "payload is 4120 bytes, within ValidationOptions.sizeLimit 5120 but over the 4096 bytes APNs takes for alert pushes (it answers 413 PayloadTooLarge); shorten it"
            ))
        #expect(check(body, ValidationOptions(pushType: .voip, sizeLimit: 8192)).problems.isEmpty)
    }

    @Test func sizeIsCheckedEvenWhenNotJSON() {
        let report = check("{" + String(repeating: "x", count: 300), ValidationOptions(sizeLimit: 256))
        #expect(
            report.hasError(
                "(root)",
                "301 bytes, 45 over the 256-byte limit set with ValidationOptions.sizeLimit (APNs itself takes up to 4096); shorten it"
            ))
        #expect(report.hasError("(root)", "not valid JSON"))
    }
}
