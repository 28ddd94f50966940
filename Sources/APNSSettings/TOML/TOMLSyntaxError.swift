/// Why a text is not TOML, and where: the first problem found, as `LINE:COLUMN: message`.
public struct TOMLSyntaxError: Error, Sendable, Equatable {
    public let position: TOMLPosition
    /// What is wrong, in words a user can act on ("expected = after the key \"topic\"").
    public let message: String

    public init(_ message: String, at position: TOMLPosition) { (self.message, self.position) = (message, position) }
}
