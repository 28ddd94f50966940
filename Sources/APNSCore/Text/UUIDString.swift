/// Canonical UUID strings (`8-4-4-4-12`), for `apns-id` checks and the mock's generated ids.
public enum UUIDString {
    /// A random version-4 UUID in upper case, as APNs generates them (two draws from the system generator).
    public static func random() -> String {
        var rng = SystemRandomNumberGenerator()
        return version4(high: rng.next(), low: rng.next())
    }

    /// Formats 128 random bits as a version-4 UUID (the version and variant bits are set here), upper case as
    /// APNs writes `apns-id`, or lower case. Callers choose the randomness: the mock draws from a fast
    /// per-loop generator because a kernel call per answer cost it a third of its throughput.
    public static func version4(high: UInt64, low: UInt64, uppercase: Bool = true) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            digits.withUTF8Buffer { hex in
                var i = 0
                for k in 0..<32 {
                    if k == 8 || k == 12 || k == 16 || k == 20 {
                        out[i] = UInt8(ascii: "-")
                        i += 1
                    }
                    let word = k < 16 ? high : low
                    out[i] = hex[Int((word >> UInt64(60 - (k % 16) * 4)) & 0xF)]
                    i += 1
                }
            }
            return 36
        }
    }

    /// Whether `text` is a canonical 8-4-4-4-12 hex UUID (either case).
    public static func isCanonical(_ text: String) -> Bool {
        let u = Array(text.utf8)
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)) {
                return false
            }
        }
        return true
    }
}
