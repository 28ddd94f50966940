/// A string as the reader kept it: whole, or, past the parser's `keptLimit`, its first bytes (whole characters)
/// and the length of all of it.
struct KeptString {
    let text: String
    /// The whole string's length in UTF-8 bytes when only its start is in `text`; nil when `text` is all of it.
    var cutLength: Int? = nil
}
