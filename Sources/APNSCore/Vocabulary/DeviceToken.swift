/// A device token as APNs wants it in `:path`: lowercase hex of the token bytes.
/// Users paste tokens in many shapes (upper case, `<…>` groups from old `description`
/// output), so parsing normalises first and explains what it cannot repair.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// Lowercase hex, even length, never empty.
    public let hex: String

    /// Why a string is not a usable token; `message` says what to do.
    public enum Problem: Error, Equatable, Sendable {
        case empty
        case elidedDescription
        /// `32 bytes`: what Swift's `print(deviceToken)` shows of a `Data`, the token nowhere in it.
        case byteCount
        /// A complete `{length = 32, bytes = 0x…}` description: the hex after `0x` is the token.
        case dataDescription(hex: String)
        case fcmToken
        /// Base64, as `deviceToken.base64EncodedString()` prints a token. `hex` is the decoded token only when the
        /// value decodes to exactly 32 bytes, a token's size: anything else may be a line of a key file given by
        /// mistake, and is never decoded.
        case base64(hex: String?)
        /// Whitespace inside a value that is not Xcode's `<xxxxxxxx xxxxxxxx …>` form: two pasted
        /// tokens must not silently become one.
        case innerWhitespace(parts: Int)
        case notHex(character: Character)
        case oddLength(count: Int)
        /// `3f2a…9c1d`: the shortened form apnsctl's own results print, copied back.
        case abbreviated
        /// `0x3f2a…`: hex written as a C or Swift literal; the token is the hex after it.
        case hexPrefix(hex: String)
        /// `"3f2a…"`: a token with quotes around it (a second pair of shell quotes, a copy from JSON); `hex` is inside.
        case quoted(hex: String)
        /// More hex digits than any token has (`maximumHexDigits`, the bound a device list's line has): no server
        /// takes a path that long, and it was refused mid-request, "may have been delivered".
        case tooLong(count: Int)

        public var message: String {
            switch self {
            case .empty: return "the device token is empty"
            case .byteCount:
                return
                    "this is how Swift prints a Data value (its length only), not the token; log the token as hex in the app: token.map { String(format: \"%02x\", $0) }.joined()"
            case .elidedDescription:
                return
                    "this is an iOS 13+ description string whose middle is elided, so the token cannot be recovered; log the token as hex in the app: token.map { String(format: \"%02x\", $0) }.joined()"
            case .dataDescription(let hex):
                return "this is a Data description string, not a token; the token is the hex after 0x: \(hex)"
            case .fcmToken:
                return
                    "this looks like a Firebase (FCM) registration token, not an APNs device token; send it through FCM, or log the APNs token as hex in the app"
            case .base64(let hex?):
                return
                    "this looks like base64 (deviceToken.base64EncodedString()); APNs wants hex, which for these bytes is \(hex)"
            case .base64(nil):
                return
                    "this looks like base64, and not of a device token's 32 bytes (is this the right value?); APNs wants the token as hex: token.map { String(format: \"%02x\", $0) }.joined()"
            case .innerWhitespace(let parts):
                return "whitespace inside the value (\(parts) part\(parts == 1 ? "" : "s")), so it is not one token"
            case .notHex(character: "\u{FEFF}"):
                // Invisible when quoted: lists joined with cat keep each one's byte-order mark.
                return
                    "the device token must be hex, found a byte-order mark (U+FEFF, invisible: a file saved with one, or lists joined from such files, carry it); remove it"
            case .notHex(let c):
                // A character that prints as nothing (a zero-width space pasted from a chat, a control character) is
                // named by its code point, or the message would read "found ''". It may be a hex digit with an
                // invisible mark on it (a variation selector): the first code point that is no hex digit is named.
                let hex: (Unicode.Scalar) -> Bool = { $0.isASCII && Character($0).isHexDigit }
                if let odd = c.unicodeScalars.first(where: { !hex($0) }),
                    odd.properties.isDefaultIgnorableCodePoint || odd.properties.generalCategory == .control
                        || odd.properties.generalCategory == .format || odd.properties.isWhitespace
                {
                    let code = "U+" + String(odd.value, radix: 16, uppercase: true).leftPadded(to: 4)
                    return
                        "the device token must be hex, found an invisible character (\(code)), pasted with the token; remove it"
                }
                return "the device token must be hex, found '\(c)'"
            case .abbreviated:
                return
                    "this is the shortened form apnsctl prints a token in (its first and last 4 digits); give the whole token (apnsctl history show lists it, and -o json prints it)"
            case .hexPrefix(let hex):
                return "a token is plain hex, without the 0x of a literal: give \(hex)"
            case .quoted(let hex):
                return
                    "the device token has quotes around it (a second pair of shell quotes, or a copy from JSON): give "
                    + "\(hex) without them"
            case .oddLength(let n):
                return
                    "the device token has \(n) hex digits; a token is whole bytes, so the count must be even (was the copy cut short?)"
            case .tooLong(let n):
                return "the device token has \(n) hex digits, where a token has 64 (a simulator's a few more) and none "
                    + "more than \(DeviceToken.maximumHexDigits); is this the right value?"
            }
        }
    }

    /// Normalises and checks `text` (APNS.md §8): trims the ends, accepts Xcode's `<xxxxxxxx xxxxxxxx …>`
    /// form, refuses any other inner whitespace, lowercases.
    public init(parsing text: String) throws(Problem) {
        // Fast path for the usual case, plain hex (a `--devices` file may hold a million of them):
        // such text cannot contain any of the shapes checked below.
        if let plain = Self.plainHex(text) {
            if plain.utf8.count > Self.maximumHexDigits { throw .tooLong(count: plain.utf8.count) }
            hex = plain
            return
        }
        let trimmed = Self.trimmed(text)
        if let described = Self.dataDescriptionHex(trimmed) {
            guard let described else { throw .elidedDescription }
            throw .dataDescription(hex: described)
        }
        if Self.isByteCount(trimmed) { throw .byteCount }
        if trimmed.contains(":APA91") || (trimmed.contains(":") && trimmed.utf8.count > 100) { throw .fcmToken }
        var body = Substring(trimmed)
        let bracketed = body.first == "<" && body.last == ">" && body.count >= 2
        if bracketed {
            body = body.dropFirst().dropLast()
        } else if body.first == "<" || body.last == ">" {
            // The Xcode form with one bracket lost in the copy: one token only when its groups are all there.
            let unbracketed = body.first == "<" ? body.dropFirst() : body.dropLast()
            if Self.isUnbracketedXcodeToken(unbracketed) { body = unbracketed }
        }
        // Quotes kept around the value (`-d '"3f2a…"'`, a JSON array's `"3f2a…",`): named as quotes, where the
        // message said it "found '\"'". What they hold may be any form a token is taken in (Xcode's `<…>`).
        let unlisted = body.last == "," ? body.dropLast() : body
        if unlisted.count > 2, let first = unlisted.first, let last = unlisted.last,
            first == last && (first == "\"" || first == "'")
                || TypographicQuote.straight(first) != nil && TypographicQuote.straight(last) != nil,
            // No quote inside: the token is parsed once more at most, never quote by quote (a long value of nested
            // quotes would recurse as deep as it is long).
            case let inside = unlisted.dropFirst().dropLast(),
            !inside.contains(where: { $0 == "\"" || $0 == "'" || TypographicQuote.straight($0) != nil }),
            let token = try? DeviceToken(parsing: String(inside))
        {
            throw .quoted(hex: token.hex)
        }
        if body.count > 2, body.hasPrefix("0x") || body.hasPrefix("0X"),
            body.dropFirst(2).allSatisfy({ $0.isASCII && $0.isHexDigit })
        {
            throw .hexPrefix(hex: body.dropFirst(2).lowercased())
        }
        if body.contains(where: { $0.isWhitespace }) {
            // Pasted without its brackets, Xcode's form is still one token (CLI.md, --device): exactly eight
            // groups of eight, so two pasted tokens can never pass for one.
            guard bracketed ? Self.isXcodeGrouping(body) : Self.isUnbracketedXcodeToken(body) else {
                throw .innerWhitespace(parts: body.split(whereSeparator: { $0.isWhitespace }).count)
            }
        }
        if !bracketed, let decoded = Self.base64TokenHex(trimmed) { throw .base64(hex: decoded) }
        if Self.isAbbreviated(body) { throw .abbreviated }
        var out = ""
        out.reserveCapacity(body.utf8.count)
        for ch in body {
            if ch == " " { continue }
            guard ch.isASCII, ch.isHexDigit else { throw .notHex(character: ch) }
            out.append(Character(ch.lowercased()))
        }
        if out.isEmpty { throw .empty }
        if out.utf8.count > Self.maximumHexDigits { throw .tooLong(count: out.utf8.count) }
        if out.utf8.count % 2 != 0 { throw .oddLength(count: out.utf8.count) }
        hex = out
    }

    /// The most hex digits a token is taken with: a device list's longest line (tokens are 64; simulators' are
    /// longer, by a few bytes).
    public static let maximumHexDigits = 200

    /// `text` as a token when it is plain hex, the usual line of a device list, without looking for any other
    /// shape; nil for anything else (which `init(parsing:)` explains).
    public init?(plainHex text: String) {
        guard let plain = Self.plainHex(text) else { return nil }
        hex = plain
    }

    /// `text` without leading and trailing whitespace (spaces, tabs, line breaks from a paste).
    private static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }

    /// Xcode's grouping inside `<…>`: hex groups separated by single spaces (Xcode prints groups of 8;
    /// other lengths are accepted, since the brackets already mark one token).
    private static func isXcodeGrouping(_ body: Substring) -> Bool {
        body.split(separator: " ", omittingEmptySubsequences: false)
            .allSatisfy { g in !g.isEmpty && g.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }

    /// `3f2a…9c1d` (or with `...`): 4 hex digits, an ellipsis, 4 hex digits, as `abbreviated` writes a token.
    private static func isAbbreviated(_ body: Substring) -> Bool {
        guard let dots = body.firstRange(of: "…") ?? body.firstRange(of: "...") else { return false }
        return [body[..<dots.lowerBound], body[dots.upperBound...]].allSatisfy {
            $0.count == 4 && $0.allSatisfy { $0.isASCII && $0.isHexDigit }
        }
    }

    /// Xcode's form without its brackets: eight groups of eight hex digits, single spaces between them.
    private static func isUnbracketedXcodeToken(_ body: Substring) -> Bool {
        let groups = body.split(separator: " ", omittingEmptySubsequences: false)
        return groups.count == 8
            && groups.allSatisfy { g in g.count == 8 && g.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }

    /// `32 bytes`, `8 bytes`: a Data's description, digits then " bytes".
    static func isByteCount(_ text: String) -> Bool {
        guard text.hasSuffix(" bytes") else { return false }
        let digits = text.dropLast(" bytes".count)
        return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// For `{length = 32, bytes = 0x3f2a…}` (and the unspaced `{length=32,bytes=0x…}` iOS logs print):
    /// `.some(hex)` when the bytes are complete, `.some(nil)` when the middle is elided, nil otherwise.
    private static func dataDescriptionHex(_ text: String) -> String?? {
        let compact = String(text.filter { !$0.isWhitespace })
        let marker = "bytes=0x"
        guard compact.contains("length="), compact.contains(marker) else { return nil }
        if compact.contains("...") || compact.contains("…") { return .some(nil) }
        var rest = Substring(compact)
        while !rest.hasPrefix(marker) { rest = rest.dropFirst() }
        let hex = rest.dropFirst(marker.count).prefix { $0.isASCII && $0.isHexDigit }.lowercased()
        return hex.isEmpty || hex.utf8.count % 2 != 0 ? .some(nil) : .some(hex)
    }

    /// For `text` that is base64 and cannot be hex (a letter beyond f, `+`, `/` or `=` padding) and is at least
    /// 12 characters: `.some(hex)` when it decodes to exactly 32 bytes (a token), `.some(nil)` for any other size,
    /// left undecoded (a key's base64 line must not be printed as hex); nil when it is not such base64.
    private static func base64TokenHex(_ text: String) -> String?? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 12, utf8.count % 4 == 0 else { return nil }
        func value(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x41...0x5A: return b - 0x41
            case 0x61...0x7A: return b - 0x61 + 26
            case 0x30...0x39: return b - 0x30 + 52
            case 0x2B: return 62
            case 0x2F: return 63
            default: return nil
            }
        }
        let padding = utf8.reversed().prefix { $0 == 0x3D }.count
        guard padding <= 2 else { return nil }
        let data = utf8.dropLast(padding)
        // A hex token with a typo must not be taken for base64: padding, or mixed case with
        // several characters hex cannot have.
        let nonHex = data.filter {
            !(($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46))
        }.count
        let mixedCase = data.contains { $0 >= 0x41 && $0 <= 0x5A } && data.contains { $0 >= 0x61 && $0 <= 0x7A }
        guard data.allSatisfy({ value($0) != nil }), padding > 0 || (mixedCase && nonHex >= 3) else { return nil }
        guard data.count * 6 / 8 == 32 else { return .some(nil) }
        var bits: UInt32 = 0
        var count = 0
        var hex = ""
        let digits = Array("0123456789abcdef")
        for b in data {
            bits = (bits << 6) | UInt32(value(b) ?? 0)
            count += 6
            if count >= 8 {
                count -= 8
                let byte = Int((bits >> UInt32(count)) & 0xFF)
                hex.append(digits[byte >> 4])
                hex.append(digits[byte & 0xF])
            }
        }
        return hex
    }

    /// Whether `text` is a token as it travels in a request path: non-empty, even-length ASCII hex in either
    /// case, nothing else (token length is not fixed). The mock's check of `/3/device/<token>`, and the
    /// parser's fast path.
    public static func isPlainHex(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { scanHex($0) } != nil
    }

    /// `text` lowercased when it is plain hex (`isPlainHex`); nil otherwise.
    private static func plainHex(_ text: String) -> String? {
        var text = text
        guard let hasUpper = text.withUTF8({ scanHex($0) }) else { return nil }
        guard hasUpper else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x46 ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// One pass over the bytes (a `--devices` file runs it on every line, twice): nil unless plain hex,
    /// else whether any digit is upper case.
    private static func scanHex(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard !bytes.isEmpty, bytes.count % 2 == 0 else { return nil }
        var hasUpper = false
        for b in bytes {
            switch b {
            case 0x30...0x39, 0x61...0x66: continue
            case 0x41...0x46: hasUpper = true
            default: return nil
            }
        }
        return hasUpper
    }

    /// 64 characters of which at least 56 are hex digits: a token with a bad character (a typo, a pasted letter),
    /// never a device name, so its error names that character (CLI.md).
    public static func isNearlyHex(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 64 else { return false }
        let hex = utf8.lazy.filter { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }.count
        return hex >= 56
    }

    /// Shorter than the classic 32 bytes: probably a truncated copy (a warning, never an error).
    public var looksTruncated: Bool { hex.utf8.count < Self.issuedHexDigits }

    /// The fewest hex digits of a token APNs issues (32 bytes; simulators' are longer since Xcode 14): APNs refuses
    /// a shorter one, and so does the mock.
    public static let issuedHexDigits = 64

    /// `3f2a…9c1d`: enough to recognise a token in output without flooding the line.
    public var abbreviated: String {
        guard hex.utf8.count > 8 else { return hex }
        return "\(hex.prefix(4))…\(hex.suffix(4))"
    }

    public var description: String { hex }
}

extension String {
    /// The text with zeros in front up to `width` characters (`A0` to `00A0`), for code points in messages.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
