/// `--since 2026-11-30 18:00` unquoted: the flag takes the date, and the parser calls the time an unexpected
/// argument, though help and the docs write dates and times that way (quoted). Said as the missing quotes.
enum SplitDateTime {
    /// `line` with advice when it is the parser's "Unexpected argument" for a time of day that follows a flag's
    /// date; else `line` as it is.
    static func correcting(_ line: String, arguments: [String]) -> String {
        let prefix = "error: Unexpected argument '"
        guard line.hasPrefix(prefix), line.hasSuffix("'") else { return line }
        let word = String(line.dropFirst(prefix.count).dropLast())
        guard isTimeOfDay(word), let i = arguments.firstIndex(of: word), i >= 2,
            isDate(arguments[i - 1]), arguments[i - 2].hasPrefix("--")
        else { return line }
        let flag = arguments[i - 2]
        return "error: \(flag) \(arguments[i - 1]) \(word): a date and its time are one value; quote them, "
            + "\(flag) '\(arguments[i - 1]) \(word)'"
    }

    /// `18:00`, `18:00:30`, with a zone or fraction after (`18:00Z`, `18:00:30.5+01:00`).
    private static func isTimeOfDay(_ word: String) -> Bool {
        let digits = Array(word.utf8.prefix(5))
        guard digits.count == 5, digits[2] == UInt8(ascii: ":") else { return false }
        return [0, 1, 3, 4].allSatisfy { (48...57).contains(digits[$0]) }
    }

    /// `2026-11-30`.
    private static func isDate(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) }
    }
}
