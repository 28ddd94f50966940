import APNSCore
import APNSPlatform
internal import COpenSSL

/// OpenSSL 3 moved RC2-40 (the cipher of macOS Keychain `.p12` exports) into the `legacy` provider.
/// Loading it switches off the implicit `default` provider, so both are loaded together, once, and the
/// handles are kept for the life of the process (dropping them leaks and unloads the algorithms).
enum OpenSSLProviders {
    private nonisolated(unsafe) static var legacy: OpaquePointer?
    private nonisolated(unsafe) static var standard: OpaquePointer?
    private static let lock = Lock()

    /// Makes legacy algorithms available; returns an error naming the module when it cannot be loaded.
    /// Safe to call repeatedly and from several threads.
    static func loadLegacy() throws(OpenSSLError) {
        try lock.withLock { () throws(OpenSSLError) in
            if legacy != nil { return }
            if standard == nil { standard = OSSL_PROVIDER_load(nil, "default") }
            guard let l = OSSL_PROVIDER_load(nil, "legacy") else {
                throw OpenSSLError("loading OpenSSL's legacy provider (legacy.so, needed for RC2/DES PKCS#12 files)")
            }
            legacy = l
        }
    }
}
