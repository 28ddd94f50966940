internal import COpenSSL

/// Passphrase bytes that are wiped (`OPENSSL_cleanse`) when the last owner lets go, so secrets
/// do not linger in freed memory. Never printed: `description` is a fixed placeholder.
/// The bytes live in one manually allocated block (never copied by copy-on-write) with a NUL after them.
public final class SecretBytes: @unchecked Sendable, CustomStringConvertible {
    private let base: UnsafeMutablePointer<UInt8>
    /// The number of secret bytes (without the terminator).
    public let count: Int

    /// Takes a copy of `bytes`; the caller should wipe its own copy if it has one.
    public init(_ bytes: [UInt8]) {
        count = bytes.count
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        base.initialize(repeating: 0, count: bytes.count + 1)
        for (i, b) in bytes.enumerated() { base[i] = b }
    }

    /// `count` bytes from OpenSSL's random generator (`RAND_bytes`), drawn straight into the wiped block; nil
    /// if the generator cannot give them.
    static func random(count: Int) -> SecretBytes? {
        let secret = SecretBytes([UInt8](repeating: 0, count: count))
        guard RAND_bytes(secret.base, Int32(clamping: count)) == 1 else {
            OpenSSLError.clearQueue()
            return nil
        }
        return secret
    }

    /// Whether the secret is empty (an empty PKCS#12 password, for example).
    public var isEmpty: Bool { count == 0 }

    /// Lends the bytes as a NUL-terminated C string; the pointer must not escape.
    func withCString<R>(_ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawPointer(base))
    }

    /// Lends the bytes as a NUL-terminated C string and their length (without the terminator).
    func withCStringAndLength<R>(_ body: (UnsafeMutableRawPointer, Int32) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawPointer(base), Int32(clamping: count))
    }

    /// Lends the bytes without the terminator (e.g. to compare two prompts).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Whether both hold the same bytes.
    public func equals(_ other: SecretBytes) -> Bool {
        withBytes { mine in other.withBytes { theirs in mine.elementsEqual(theirs) } }
    }

    public var description: String { "<secret>" }

    deinit {
        COpenSSL_OPENSSL_cleanse(base, count + 1)
        base.deallocate()
    }
}
