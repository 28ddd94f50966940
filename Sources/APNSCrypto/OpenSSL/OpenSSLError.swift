internal import COpenSSL

/// Every entry of OpenSSL's thread-local error queue, drained right after a failing call.
/// Internal to the wrappers: domain code turns it into a `CredentialProblem` or transport failure.
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// One queued error: its packed code, reason text and the optional "data" string
    /// (which carries the useful part of `unsupported` errors, e.g. `Algorithm (RC2-40-CBC : 0)`).
    public struct Entry: Sendable {
        public let code: UInt
        public let text: String
        public let data: String?
        /// The library number (`ERR_GET_LIB`).
        public var library: Int32 { COpenSSL.ERR_GET_LIB(code) }
        /// The reason number (`ERR_GET_REASON`).
        public var reason: Int32 { COpenSSL.ERR_GET_REASON(code) }
    }

    /// What apnsctl was doing, e.g. `reading the PKCS#12 file`.
    public let operation: String
    public let entries: [Entry]

    /// Drains the queue now (call straight after the failing function).
    public init(_ operation: String) {
        self.operation = operation
        var list: [Entry] = []
        while true {
            var data: UnsafePointer<CChar>? = nil
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buf = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buf, buf.count)
            let text = buf.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } ?? "" }
            let extra: String? = (flags & ERR_TXT_STRING) != 0 ? data.map { String(cString: $0) } : nil
            list.append(Entry(code: code, text: text, data: (extra?.isEmpty ?? true) ? nil : extra))
        }
        entries = list
    }

    /// Discards queued errors (after a loop that ends on an expected failure, such as PEM's NO_START_LINE).
    public static func clearQueue() { ERR_clear_error() }

    /// Whether any entry carries `reason` (e.g. `EVP_R_UNSUPPORTED` for a legacy cipher).
    public func has(reason: Int32) -> Bool { entries.contains { $0.reason == reason } }

    /// The entry saying a cipher is not available here (a `.p12` or key encrypted with RC2 or DES while the
    /// `legacy` provider is not loaded): the envelope library's "unsupported", whose data names the
    /// algorithm. The decoders' own "unsupported" ("No supported data to decode") is not it: a wrong
    /// passphrase whose decrypted garbage happens to end in valid padding (about one in 300) says that too.
    public var unsupportedAlgorithm: Entry? {
        entries.first { $0.library == ERR_LIB_EVP && $0.text.contains("unsupported") }
    }

    /// Whether any entry's text contains `fragment` (for reasons OpenSSL does not export as constants).
    public func mentions(_ fragment: String) -> Bool {
        entries.contains { $0.text.contains(fragment) || ($0.data?.contains(fragment) ?? false) }
    }

    public var description: String {
        let detail = entries.map { e in e.data.map { "\(e.text) (\($0))" } ?? e.text }.joined(separator: "; ")
        return detail.isEmpty ? "\(operation) failed" : "\(operation): \(detail)"
    }
}

/// The linked OpenSSL, for `apnsctl --version`.
public enum OpenSSLLibrary {
    public static var version: String { String(cString: COpenSSL_version_text()) }
}
