/// Apple's team ids and key ids: 10 characters, `A-Z` and `0-9`, as the Apple Developer portal shows them.
/// One rule for the settings (a malformed id is refused where it was written), the token signer and the mock.
public enum DeveloperID {
    /// Whether `id` is a well-formed team id or key id.
    public static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
