import APNSCore

/// A setting's value before it is checked: the text of a flag or variable, or a TOML value from a profile.
public enum RawSetting: Sendable, Equatable {
    case argument(String)
    case toml(TOMLValue)

    /// How the value is quoted in a message: as typed, or in TOML syntax (`priority = 7`, `topic = "x"`).
    var shown: String {
        switch self {
        case .argument(let s): return s
        case .toml(let v): return Self.tomlText(v)
        }
    }

    static func tomlText(_ v: TOMLValue) -> String {
        switch v {
        case .string(let s): return "\"" + s + "\""
        case .integer(let n): return String(n)
        case .float(let d): return String(d)
        case .boolean(let b): return b ? "true" : "false"
        case .dateTime(let s): return s
        case .array(let items): return "[" + items.map { tomlText($0.value) }.joined(separator: ", ") + "]"
        case .table: return "{…}"
        }
    }
}

extension String {
    /// `PrintableText.escapingControls`: control characters and bidirectional overrides as `\u{1B}`, so no
    /// value can drive the terminal or reorder a line.
    func escapingControls() -> String { PrintableText.escapingControls(self) }
}
