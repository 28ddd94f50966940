/// Whether a message may quote an environment variable's value. A value longer than 200 characters or holding
/// a line break (or a key's base64 body on one line, or a provider token) is usually a file pasted into the variable (`APNSCTL_CERT="$(cat bag.pem)"`), a key or certificate among
/// them: no message, `-v` line or `config show` row prints it, only what it is.
public enum VariableEcho {
    /// The longest value a message quotes.
    public static let limit = 200

    /// Whether `value` may be quoted (escaped) in a message.
    public static func mayEcho(_ value: String) -> Bool {
        value.count <= limit && !value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" } && !isSecretText(value)
    }

    /// A key's base64 body or a provider token: text that is itself a secret, whatever its length, also with the
    /// blanks, line break, quotes or comma a paste leaves around it.
    public static func isSecretText(_ value: String) -> Bool { secretCore(of: value) != nil }

    /// The secret `value` holds once a paste's blanks, line breaks, quotes and commas around it are dropped; nil
    /// when it holds none. What a message must never show, wherever it appears.
    /// Run on every argument at start-up: a value too short for either, or holding neither's start, is let go
    /// before anything is copied.
    public static func secretCore(of value: String) -> String? {
        guard value.utf8.count >= 40, value.contains("MI") || value.contains("eyJ") else { return nil }
        let utf8 = value.utf8
        let isEdge = { (b: UInt8) in
            b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x22 || b == 0x27 || b == 0x2C
        }
        let start = utf8.firstIndex { !isEdge($0) } ?? utf8.endIndex
        let end = utf8.lastIndex { !isEdge($0) }.map { utf8.index(after: $0) } ?? start
        guard start < end else { return nil }
        let core = String(value[start..<end])
        return isKeyBody(core) || isProviderToken(core) ? core : nil
    }

    /// A provider token (a JWT: `eyJ…` header, claims and signature in base64url, joined by dots), alone or after
    /// `bearer `: a credential for an hour, pasted where a topic, an id or a path goes.
    public static func isProviderToken(_ value: String) -> Bool {
        var token = Substring(value)
        if token.prefix(7).lowercased() == "bearer " { token = token.dropFirst(7) }
        guard token.utf8.count >= 40, token.hasPrefix("eyJ") else { return false }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.dropLast().allSatisfy({ !$0.isEmpty }),
            token.utf8.allSatisfy({ b in
                (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
                    || b == 0x5F || b == 0x2E
            })
        else { return false }
        // A JWT's header names its algorithm: a bundle id such as `eyJewelry.example.app` does not decode to one.
        let header = base64URLDecoded(parts[0])
        return header.first == UInt8(ascii: "{") && header.count >= 8
            && header.indices.dropLast(4).contains { Array(header[$0..<$0 + 5]) == Array("\"alg\"".utf8) }
    }

    /// The bytes of base64 or base64url text (no padding needed); undecodable characters end it.
    static func base64URLDecoded(_ text: Substring) -> [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for b in text.utf8 {
            let v: UInt32
            switch b {
            case 0x41...0x5A: v = UInt32(b - 0x41)
            case 0x61...0x7A: v = UInt32(b - 0x61 + 26)
            case 0x30...0x39: v = UInt32(b - 0x30 + 52)
            case 0x2D, 0x2B: v = 62
            case 0x5F, 0x2F: v = 63
            default: return out
            }
            buffer = (buffer << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }

    /// A key's base64 body on one line, without its BEGIN and END lines (a `.p8` is 184 characters: how keys are
    /// often kept as CI secrets): base64 only, at least 64 characters, starting `MI` (a DER SEQUENCE).
    public static func isKeyBody(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard utf8.count >= 64, value.hasPrefix("MI") else { return false }
        return utf8.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B
                || b == 0x2F || b == 0x3D
        }
    }

    /// Whether a command-line argument or a settings-file value may be quoted (escaped) in a message: the rule for
    /// variables, except that a value of one line with a line break around it (a slip the message should show)
    /// is quoted.
    public static func mayEchoArgument(_ value: String) -> Bool {
        value.count <= limit && !isSecretText(value)
            && value.split(
                omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            )
            .count <= 1
    }

    /// `value` escaped when it may be quoted, else `(a value of 3 lines, not shown)` or
    /// `(a value of 523 characters, not shown)`.
    public static func shown(_ value: String) -> String {
        if mayEcho(value) { return PrintableText.escapingControls(value) }
        return "(" + description(of: value) + ", not shown)"
    }

    /// A path (or `--flag PATH`) as a message names it: whole when it may be quoted, else its flag and what it is
    /// (`--auth-key (a value of 324 characters, not shown)`): a file's text given where its path goes, in base64
    /// or PEM, was printed whole by every "no such file".
    public static func shownPath(_ path: String) -> String {
        // Named by a flag or a variable (`APNSCTL_CA_FILE VALUE`): the value is judged alone, and described under
        // the name when it may not be quoted.
        if path.hasPrefix("--") || path.hasPrefix("APNSCTL_"), let space = path.firstIndex(of: " ") {
            let value = String(path[path.index(after: space)...])
            if mayEchoArgument(value) { return path }
            return String(path[..<space]) + " (" + description(of: value) + ", not shown)"
        }
        if mayEchoArgument(path) { return path }
        return "(" + description(of: path) + ", not shown)"
    }

    /// `a value of 3 lines`, `a value of 523 characters`, `a key's base64 body (184 characters)`.
    public static func description(of value: String) -> String {
        if let core = secretCore(of: value) {
            return isKeyBody(core)
                ? "a key's base64 body (\(core.count) characters)" : "a provider token (JWT, \(core.count) characters)"
        }
        let lines = value.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        ).count
        return lines > 1 ? "a value of \(lines) lines" : "a value of \(value.count) characters"
    }
}
