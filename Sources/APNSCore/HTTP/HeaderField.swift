/// One HTTP header field, as requests are built and answers read. A plain value in the core so the
/// client's public API, the mock and the CLI share it without any of them seeing the HTTP/2 library.
public struct HeaderField: Equatable, Hashable, Sendable {
    public let name: String
    public let value: String
    /// Never put in the HPACK dynamic table: per-request values (`:path`, `apns-id`) and secrets
    /// (`authorization` is indexed on purpose, as APNS.md advises: it repeats on every request).
    public let neverIndex: Bool

    /// A field; names are lowercase on the HTTP/2 wire.
    public init(_ name: String, _ value: String, neverIndex: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndex = neverIndex
    }
}

extension Array where Element == HeaderField {
    /// The first value of `name` (names are lowercase on the wire).
    public func value(of name: String) -> String? { first { $0.name == name }?.value }
}

extension HeaderField {
    /// The scheme of a provider token's `authorization` value.
    public static let bearerScheme = "bearer "

    /// `authorization: bearer <token>`, how a token connection carries its provider token; indexed, as it
    /// repeats on every request.
    public static func bearer(_ token: String) -> HeaderField {
        HeaderField(APNSHeader.authorization.name, bearerScheme + token)
    }
}
