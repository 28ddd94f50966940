import APNSCore
import APNSPlatform
import Testing

@Suite struct VocabularyTests {
    @Test(arguments: APNSReason.allCases)
    func everyReasonHasStatusAndMeaning(reason: APNSReason) {
        #expect([400, 403, 404, 405, 410, 413, 429, 500, 503].contains(reason.status))
        #expect(reason.meaning.hasSuffix("."))
    }

    @Test func topicSuffixInferencePrefersLongestSuffix() {
        #expect(PushType.inferred(fromTopic: "com.x.voip-ptt") == .pushtotalk)
        #expect(PushType.inferred(fromTopic: "com.x.voip") == .voip)
        #expect(PushType.inferred(fromTopic: "com.x.push-type.liveactivity") == .liveactivity)
        #expect(PushType.inferred(fromTopic: "com.x") == nil)
    }

    @Test(arguments: [("256", 256), ("2k", 2048), ("4K", 4096), ("5k", 5120), ("4096", 4096)])
    func sizeLimitParses(text: String, bytes: Int) { #expect(SizeLimit.parse(text) == bytes) }

    @Test(arguments: ["", "k", "-1", "0", "4x", "1.5k"])
    func sizeLimitRejects(text: String) { #expect(SizeLimit.parse(text) == nil) }

    /// Why a limit is refused: its form, zero, or past what is read of a payload (64 MiB), Int's range included.
    @Test func sizeLimitRefusalsAreTold() {
        #expect(SizeLimit.reading("1e3") == .failure(.notACount))
        #expect(SizeLimit.reading("0k") == .failure(.zero))
        #expect(SizeLimit.reading("65536k") == .success(64 << 20))
        #expect(SizeLimit.reading("65537k") == .failure(.overLargest))
        #expect(SizeLimit.reading("67108865") == .failure(.overLargest))
        #expect(SizeLimit.reading("99999999999999999999") == .failure(.overLargest))
    }

    @Test func deviceTokenNormalises() throws {
        let t = try DeviceToken(parsing: " <3F2A1B0C 9D8E7F6A> ")
        #expect(t.hex == "3f2a1b0c9d8e7f6a")
        #expect(t.looksTruncated)
    }

    /// The request path's token (the mock's check): even-length hex of any length, either case, nothing else.
    @Test func plainHexIsTheWireForm() throws {
        for text in ["3f2a", "3F2A", "aB", String(repeating: "0", count: 64), String(repeating: "f", count: 200)] {
            #expect(DeviceToken.isPlainHex(text), "\(text)")
            #expect(try DeviceToken(parsing: text).hex == text.lowercased())
        }
        for text in ["", "abc", "gg", " 3f2a", "3f2a ", "<3f2a>", "3f-2a", "3f2a\n", "é0"] {
            #expect(!DeviceToken.isPlainHex(text), "\(text)")
        }
    }

    @Test func deviceTokenRejectsWhatItCannotRepair() {
        #expect(throws: DeviceToken.Problem.oddLength(count: 3)) { try DeviceToken(parsing: "abc") }
        // Longer than any token (a device list's line bound): refused, not sent for a stream reset "may have been
        // delivered". A simulator's longer token is taken.
        #expect(throws: DeviceToken.Problem.tooLong(count: 7700)) {
            try DeviceToken(parsing: String(repeating: "a", count: 7700))
        }
        #expect(throws: Never.self) { try DeviceToken(parsing: String(repeating: "ab", count: 80)) }
        #expect(
            DeviceToken.Problem.tooLong(count: 7700).message
                == "the device token has 7700 hex digits, where a token has 64 (a simulator's a few more) and none more than 200; is this the right value?"
        )
        #expect(throws: DeviceToken.Problem.notHex(character: "g")) { try DeviceToken(parsing: "gg") }
        // A byte-order mark mid-list (lists joined with cat) is named, not quoted invisibly as ''.
        #expect(throws: DeviceToken.Problem.notHex(character: "\u{FEFF}")) { try DeviceToken(parsing: "\u{FEFF}3f2a") }
        #expect(
            DeviceToken.Problem.notHex(character: "\u{FEFF}").message
                == "the device token must be hex, found a byte-order mark (U+FEFF, invisible: a file saved with one, or lists joined from such files, carry it); remove it"
        )
        // An invisible mark on a hex digit is named, and an emoji is no invisible character.
        #expect(
            DeviceToken.Problem.notHex(character: "a\u{FE0F}").message
                == "the device token must be hex, found an invisible character (U+FE0F), pasted with the token; remove it"
        )
        #expect(DeviceToken.Problem.notHex(character: "👨‍💻").message == "the device token must be hex, found '👨‍💻'")
        // A zero-width space pasted from a chat is named by its code point, not quoted as ''.
        #expect(throws: DeviceToken.Problem.notHex(character: "\u{200B}")) {
            try DeviceToken(parsing: "3f2a\u{200B}9c1d")
        }
        #expect(
            DeviceToken.Problem.notHex(character: "\u{200B}").message
                == "the device token must be hex, found an invisible character (U+200B), pasted with the token; remove it"
        )
        // Swift's print(deviceToken): the length only, said as such (not "2 parts").
        #expect(throws: DeviceToken.Problem.byteCount) { try DeviceToken(parsing: "32 bytes") }
        #expect(throws: DeviceToken.Problem.elidedDescription) {
            try DeviceToken(parsing: "{length = 32, bytes = 0x3f2a1b0c 9d8e7f6a ... 5b6c9c1d }")
        }
        #expect(throws: DeviceToken.Problem.empty) { try DeviceToken(parsing: "  ") }
        #expect(throws: DeviceToken.Problem.elidedDescription) {
            try DeviceToken(parsing: "{length=32,bytes=0x3f2a1b0c9d8e7f6a...5b6c9c1d}")
        }
        #expect(throws: DeviceToken.Problem.dataDescription(hex: "3f2a1b0c9d8e7f6a")) {
            try DeviceToken(parsing: "{length=8,bytes=0x3f2a1b0c9d8e7f6a}")
        }
    }

    /// APNS.md §8: the ends are trimmed and Xcode's grouping is accepted; any other inner whitespace
    /// (two pasted tokens, a stray space) is refused so it cannot become one longer token.
    @Test func deviceTokenWhitespaceRule() throws {
        let a = String(repeating: "ab", count: 32)
        let b = String(repeating: "cd", count: 32)
        #expect(try DeviceToken(parsing: "\t\(a)\r\n").hex == a)
        let grouped =
            "<" + stride(from: 0, to: 64, by: 8).map { i in String(Array(a)[i..<i + 8]) }.joined(separator: " ") + ">"
        #expect(try DeviceToken(parsing: grouped).hex == a)
        #expect(try DeviceToken(parsing: "<3f2a1b0c 9d8e>").hex == "3f2a1b0c9d8e", "the last group may be shorter")
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 2)) { try DeviceToken(parsing: "\(a) \(b)") }
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 2)) { try DeviceToken(parsing: "\(a)\t\(b)") }
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 2)) {
            try DeviceToken(parsing: "<3f2a1b0c  9d8e7f6a>")
        }
        // CLI.md, --device: Xcode's form is accepted without its brackets too (eight groups of eight), but
        // nothing looser: a shorter group or a ninth group is still two tokens' worth of doubt.
        #expect(try DeviceToken(parsing: String(grouped.dropFirst().dropLast())).hex == a)
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 2)) { try DeviceToken(parsing: "3f2a1b0c 9d8e") }
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 9)) {
            try DeviceToken(parsing: String(grouped.dropFirst().dropLast()) + " 3f2a1b0c")
        }
        // One bracket lost in the copy: the same eight groups of eight, or the same doubt.
        #expect(try DeviceToken(parsing: String(grouped.dropLast())).hex == a)
        #expect(try DeviceToken(parsing: String(grouped.dropFirst())).hex == a)
        #expect(throws: DeviceToken.Problem.innerWhitespace(parts: 2)) { try DeviceToken(parsing: "<3f2a1b0c 9d8e") }
        // A literal's 0x: named, with the token to give.
        #expect(throws: DeviceToken.Problem.hexPrefix(hex: a)) { try DeviceToken(parsing: "0x" + a.uppercased()) }
        #expect(
            DeviceToken.Problem.hexPrefix(hex: a).message
                == "a token is plain hex, without the 0x of a literal: give \(a)")
        // Quotes kept around it (`-d '"…"'`, a copy from JSON), straight or typographic: named as quotes.
        let xcode =
            "<"
            + stride(from: 0, to: 64, by: 8).map { i in
                String(a.dropFirst(i).prefix(8))
            }.joined(separator: " ") + ">"
        for quoted in ["\"\(a)\"", "'\(a)'", "\u{201C}\(a.uppercased())\u{201D}", "\"\(a)\",", "\"\(xcode)\""] {
            #expect(throws: DeviceToken.Problem.quoted(hex: a)) { try DeviceToken(parsing: quoted) }
        }
        #expect(
            DeviceToken.Problem.quoted(hex: a).message
                == "the device token has quotes around it (a second pair of shell quotes, or a copy from JSON): give \(a) without them"
        )
        #expect(throws: DeviceToken.Problem.notHex(character: "\"")) { try DeviceToken(parsing: "\"" + a) }
        // Quotes nested as deep as a long argument goes are read once, not quote by quote (no deep recursion).
        let nested = String(repeating: "\"'", count: 50_000) + a + String(repeating: "'\"", count: 50_000)
        #expect(throws: DeviceToken.Problem.self) { try DeviceToken(parsing: nested) }
    }

    @Test func deviceTokenBase64GetsAHint() throws {
        // 32 bytes 0x3f 0x2a … as base64 (what deviceToken.base64EncodedString() prints).
        let bytes: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 11) & 0xFF) }
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var b64 = ""
        var i = 0
        while i < bytes.count {
            let chunk = Array(bytes[i..<min(i + 3, bytes.count)])
            let n = chunk.enumerated().reduce(0) { $0 | (Int($1.element) << (16 - 8 * $1.offset)) }
            for k in 0..<(chunk.count + 1) { b64.append(table[(n >> (18 - 6 * k)) & 63]) }
            i += 3
        }
        while b64.count % 4 != 0 { b64 += "=" }
        #expect(throws: DeviceToken.Problem.base64(hex: hex)) { try DeviceToken(parsing: b64) }
        // Base64 of any other size is not decoded: it may be a line of a key file given by mistake.
        let keyLine = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgC7ZcQD6R6kRNieLW"
        #expect(throws: DeviceToken.Problem.base64(hex: nil)) { try DeviceToken(parsing: keyLine) }
        #expect(throws: DeviceToken.Problem.base64(hex: nil)) {
            try DeviceToken(parsing: String(b64.dropLast()) + "AAAAA")
        }
        #expect(!DeviceToken.Problem.base64(hex: nil).message.contains("which for these bytes"))
        // A hex token with one typo is not base64.
        #expect(throws: DeviceToken.Problem.notHex(character: "g")) {
            try DeviceToken(parsing: "g" + String(hex.dropFirst()))
        }
    }

    @Test func uuidsAreCanonical() {
        let u = UUIDString.random()
        #expect(UUIDString.isCanonical(u))
        #expect(!UUIDString.isCanonical("not-a-uuid"))
        #expect(UUIDString.isCanonical("8a6c1f8e-1234-4abc-9def-0123456789ab"))
    }
}
