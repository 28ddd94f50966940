/// The curly quotes and apostrophes an editor or a phone writes for straight ones (`“com.x”`, `Ada’s iPhone`): one
/// list for every check that says "write straight ones" and every comparison that reads them as straight.
public enum TypographicQuote {
    /// “ ” ‘ ’
    public static let characters: Set<Character> = ["\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}"]

    /// Whether `scalar` is one of them.
    public static func isTypographic(_ scalar: Unicode.Scalar) -> Bool {
        (0x2018...0x2019).contains(scalar.value) || (0x201C...0x201D).contains(scalar.value)
    }

    /// The straight quote `c` stands for (`'` or `"`), nil for any other character. The modifier apostrophe
    /// (U+02BC), which some keyboards type in a name, is an apostrophe here too.
    public static func straight(_ c: Character) -> Character? {
        switch c {
        case "\u{2018}", "\u{2019}", "\u{02BC}": return "'"
        case "\u{201C}", "\u{201D}": return "\""
        default: return nil
        }
    }
}
