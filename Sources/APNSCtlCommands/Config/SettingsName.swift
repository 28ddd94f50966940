/// A name the settings file keeps (a profile's, a device's) as typed: a control character in it is a script's
/// stray line break, never meant, and the name without it is the one to suggest.
enum SettingsName {
    /// Whether `name` holds a C0 control character or DEL.
    static func hasControl(_ name: String) -> Bool { name.unicodeScalars.contains(where: isControl) }

    /// `name` with each control character a dash, less the dashes, blanks and a `#` at its ends (which -d and a
    /// --devices list trim, or read as a comment): empty when nothing is left.
    static func suggestion(for name: String) -> String {
        let dashed = String(name.unicodeScalars.map { isControl($0) ? "-" : Character($0) })
        return String(
            dashed.drop { $0 == "-" || $0 == "#" || $0.isWhitespace }.reversed().drop {
                $0 == "-" || $0.isWhitespace
            }.reversed())
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }
}
