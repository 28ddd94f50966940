extension String {
    /// Without leading and trailing spaces, tabs and line breaks (a paste's, a secret store's trailing newline, a
    /// Windows file's CRLF), as every value typed or pasted is read. By scalars: "\r\n" is one Character, which a
    /// test of Characters would keep.
    public func trimmingBlanks() -> String {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Whether the text starts with a blank (a space, tab or line break) and then `prefix`: a paste's leading blanks.
    public func startsAfterBlanks(with prefix: String) -> Bool {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let head = unicodeScalars.first, blank(head) else { return false }
        return trimmingBlanks().hasPrefix(prefix)
    }
}
