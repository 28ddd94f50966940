internal import COpenSSL

/// Passphrase bytes that are wiped (`OPENSSL_cleanse`) when the last owner lets go, so secrets
/// do not linger in freed memory. Never printed: `description` is a fixed placeholder.
public final class SecretBytes: @unchecked Sendable, CustomStringConvertible {
    private var storage: [UInt8]

    /// Takes a copy of `bytes`; the caller should wipe its own copy if it has one.
    public init(_ bytes: [UInt8]) {
        storage = bytes
        storage.append(0)  // NUL-terminated for OpenSSL's C-string APIs
    }

    /// The number of secret bytes (without the terminator).
    public var count: Int { storage.count - 1 }

    /// Whether the secret is empty (an empty PKCS#12 password, for example).
    public var isEmpty: Bool { count == 0 }

    /// Lends the bytes as a NUL-terminated C string; the pointer must not escape.
    func withCString<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try withCString { pointer, _ in try body(pointer) }
    }

    /// Lends the bytes as a NUL-terminated C string and their length (without the terminator).
    /// Use this rather than reading `count` inside the closure, which would overlap the mutable access.
    func withCString<R>(_ body: (UnsafeMutableRawPointer, Int32) throws -> R) rethrows -> R {
        try storage.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { preconditionFailure("SecretBytes always holds a terminator") }
            return try body(base, Int32(raw.count - 1))
        }
    }

    /// Lends the bytes without the terminator (e.g. to compare two prompts).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0.dropLast())) }
    }

    /// Whether both hold the same bytes.
    public func equals(_ other: SecretBytes) -> Bool { storage == other.storage }

    public var description: String { "<secret>" }

    deinit { storage.withUnsafeMutableBytes { COpenSSL_OPENSSL_cleanse($0.baseAddress, $0.count) } }
}
