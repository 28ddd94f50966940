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
        case fcmToken
        case notHex(character: Character)
        case oddLength(count: Int)

        public var message: String {
            switch self {
            case .empty: return "the device token is empty"
            case .elidedDescription:
                return "this is an iOS 13+ description string whose middle is elided, so the token cannot be recovered; log the token as hex in the app: token.map { String(format: \"%02x\", $0) }.joined()"
            case .fcmToken:
                return "this looks like a Firebase (FCM) registration token, not an APNs device token; send it through FCM, or log the APNs token as hex in the app"
            case .notHex(let c): return "the device token must be hex, found '\(c)'"
            case .oddLength(let n): return "the device token has \(n) hex digits; a token is whole bytes, so the count must be even (was the copy cut short?)"
            }
        }
    }

    /// Normalises and checks `text`: trims, drops whitespace, `<` and `>`, lowercases.
    public init(parsing text: String) throws(Problem) {
        // Fast path for the usual case, plain hex (a `--devices` file may hold a million of them):
        // such text cannot contain any of the shapes checked below.
        if let plain = Self.plainHex(text) {
            hex = plain
            return
        }
        if text.contains("length =") || text.contains("bytes = 0x") || text.contains("...") || text.contains("…") {
            throw .elidedDescription
        }
        if text.contains(":APA91") || (text.contains(":") && text.utf8.count > 100) { throw .fcmToken }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            if ch == "<" || ch == ">" || ch.isWhitespace { continue }
            guard ch.isASCII, ch.isHexDigit else { throw .notHex(character: ch) }
            out.append(Character(ch.lowercased()))
        }
        if out.isEmpty { throw .empty }
        if out.utf8.count % 2 != 0 { throw .oddLength(count: out.utf8.count) }
        hex = out
    }

    /// `text` lowercased when it is non-empty, even-length ASCII hex and nothing else; nil otherwise.
    private static func plainHex(_ text: String) -> String? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var lowered = false
        for b in utf8 {
            switch b {
            case 0x30...0x39, 0x61...0x66: continue
            case 0x41...0x46: lowered = true
            default: return nil
            }
        }
        guard lowered else { return text }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x46 ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Shorter than the classic 32 bytes: probably a truncated copy (a warning, never an error).
    public var looksTruncated: Bool { hex.utf8.count < 64 }

    /// `3f2a…9c1d`: enough to recognise a token in output without flooding the line.
    public var abbreviated: String {
        guard hex.utf8.count > 8 else { return hex }
        return "\(hex.prefix(4))…\(hex.suffix(4))"
    }

    public var description: String { hex }
}
