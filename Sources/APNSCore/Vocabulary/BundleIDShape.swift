/// A bundle id as an `apns-topic` header carries it: ASCII letters, digits, hyphens, underscores and dots, no empty
/// part. One rule for every place a bundle id comes from (a flag, a settings file, an `.apns` file, an app build), so
/// a topic is refused alike wherever it was written, before a server answers BadTopic or resets the stream.
public enum BundleIDShape {
    public enum Problem: Equatable, Sendable {
        /// Quotes a shell or an editor left around it (typographic ones included).
        case quotes
        /// A dot at its start or end, or two in a row.
        case emptyPart
        /// A character no bundle id holds: the first one.
        case character(Unicode.Scalar)
    }

    /// What is wrong with `id`, or nil for a bundle id. With `wildcard`, a provisioning profile's `*` as a whole last
    /// part (`com.example.*`) or the whole id is a bundle id too.
    public static func problem(in id: String, wildcard: Bool = false) -> Problem? {
        if id.unicodeScalars.contains(where: { $0 == "\"" || $0 == "'" || TypographicQuote.isTypographic($0) }) {
            return .quotes
        }
        var body = Substring(id)
        if wildcard && body.hasSuffix("*") {
            body = body.dropLast()
            if body.isEmpty { return nil }
            // Glued to a word (`com.example*`), the star is a character of that part.
            if body.hasSuffix(".") { body = body.dropLast() } else { body += "*" }
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        if parts.contains(where: \.isEmpty) { return .emptyPart }
        return body.unicodeScalars.first(where: { !isAllowed($0) }).map(Problem.character)
    }

    /// What a bundle id is made of, for the messages that refuse one.
    public static let allowed = "ASCII letters, digits, hyphens, underscores and dots, such as com.example.app"

    /// `character`'s problem in words: the character in quotes with its code point, or the code point alone for one
    /// nobody would see (a right-to-left mark, a zero-width space, a combining accent).
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = JSONParser.hex4(scalar.value)
        return isInvisible(scalar) ? "an invisible character (\(code))" : "\u{2018}\(scalar)\u{2019} (\(code))"
    }

    /// A character nobody would see in a message: a format or control character, a blank, a combining mark.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark,
            .enclosingMark, .spacingMark, .surrogate, .privateUse, .unassigned:
            true
        default: false
        }
    }

    /// `text` with the characters `describe` calls invisible written as `\u{…}`, so a message quoting a topic shows them.
    public static func showingInvisible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar != " ", isInvisible(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "A"..."Z", "a"..."z", "-", "_", ".": true
        default: false
        }
    }
}
