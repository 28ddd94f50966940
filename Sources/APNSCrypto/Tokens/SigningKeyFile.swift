import APNSCore

/// A `.p8` key read but not yet decoded. A provider token cached for exactly these bytes is reused without
/// decoding the key or checking the token's signature: that check alone cost a cache hit 0.6 ms of a send,
/// and the bytes say all it would. Decoded only to sign a new token.
public struct SigningKeyFile: Sendable {
    /// The key's bytes: held only as long as the command runs, never printed.
    let bytes: [UInt8]
    /// The file's path, or `(PEM from APNSCTL_AUTH_KEY)`, for messages.
    public let name: String
    /// The `<ID>` of `AuthKey_<ID>.p8`, unchecked; nil for other names and for PEM in memory.
    public let keyIDFromFileName: String?

    /// Reads `input`; a missing, unreadable or empty file is the same credential problem as when decoding.
    public static func read(_ input: CredentialInput) throws(CredentialProblem) -> SigningKeyFile {
        SigningKeyFile(
            bytes: try CredentialLoader.read(input), name: input.name,
            keyIDFromFileName: input.filePath.flatMap { SigningKey.keyID(fromFileName: $0) })
    }

    /// The key, with every check `CredentialLoader.loadSigningKey` makes (P-256, no certificate, not a .p12).
    public func decode() throws(CredentialProblem) -> SigningKey {
        try CredentialLoader.loadSigningKey(bytes: bytes, name: name, keyIDFromFileName: keyIDFromFileName)
    }
}
