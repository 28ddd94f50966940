/// curl's config file syntax (`-K`, `--config`) as its parser reads it (curl's `tool_parsecfg.c`): one
/// option a line, leading blanks skipped, `#`, `/` and `*` lines ignored; the option name ends at a blank or,
/// without leading dashes, at `=` or `:`; blanks and separators follow; a value in double quotes ends at the
/// first `"` not escaped, `\t`, `\n`, `\r`, `\v` are control characters and a `\` before any other character
/// is dropped; an unquoted value ends at a blank. Lets tests read what a fake curl was given as curl would.
enum CurlConfig {
    struct Entry: Equatable {
        /// The option's name without leading dashes.
        let option: String
        let value: String
    }

    static func entries(_ text: String) -> [Entry] {
        // Scalars, not characters: "\r\n" is one Character, and curl reads bytes.
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).compactMap { entry(Array($0)) }
    }

    private static func isBlank(_ c: Unicode.Scalar) -> Bool {
        [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(c)
    }

    private static func entry(_ line: [Unicode.Scalar]) -> Entry? {
        var i = line.firstIndex { !isBlank($0) } ?? line.endIndex
        guard i < line.endIndex, !["#", "/", "*"].contains(line[i]) else { return nil }
        let dashed = line[i] == "-"
        let optionStart = i
        while i < line.endIndex, !isBlank(line[i]), dashed || (line[i] != "=" && line[i] != ":") { i += 1 }
        let option = String(String.UnicodeScalarView(line[optionStart..<i])).drop { $0 == "-" }
        while i < line.endIndex, isBlank(line[i]) || (!dashed && (line[i] == "=" || line[i] == ":")) { i += 1 }
        var value = String.UnicodeScalarView()
        if i < line.endIndex, line[i] == "\"" {
            i += 1
            while i < line.endIndex, line[i] != "\"" {
                if line[i] == "\\" {
                    i += 1
                    guard i < line.endIndex else { break }
                    switch line[i] {
                    case "t": value.append("\t")
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "v": value.append("\u{0B}")
                    default: value.append(line[i])
                    }
                } else {
                    value.append(line[i])
                }
                i += 1
            }
        } else {
            while i < line.endIndex, !isBlank(line[i]) {
                value.append(line[i])
                i += 1
            }
        }
        return Entry(option: String(option), value: String(value))
    }
}
