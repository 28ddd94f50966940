/// A value as one word of a command line we print for the user to paste: a path with a space or a quote in it must
/// not split into two words or open a quote.
public enum ShellWord {
    /// `'text'` with embedded single quotes closed and reopened, safe for any shell word.
    public static func quoted(_ text: String) -> String {
        var out = "'"
        for ch in text { out += ch == "'" ? "'\\''" : String(ch) }
        return out + "'"
    }

    /// `text` as it is when every character is one no shell treats specially, else `quoted(text)`: the usual path
    /// reads as typed. A leading `=` is quoted (zsh expands `=cmd` to the command's path).
    public static func of(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/-+:@%,=".contains($0)) }
        return plain && !text.isEmpty && text.first != "=" ? text : quoted(text)
    }
}
