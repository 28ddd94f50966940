/// Makes the `apns-id` and `apns-unique-id` values the mock answers with: version-4 UUID text from a fast
/// per-loop generator (SplitMix64, seeded once from the system), because asking the kernel for 32 random bytes
/// per answer cost the mock a third of its throughput. These ids are labels, not secrets.
public struct MockIDGenerator: Sendable {
    private var state: UInt64

    /// Seeded from the system generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    /// A fixed seed, for reproducible tests.
    public init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random version-4 UUID, upper case as APNs generates `apns-id`, or lower case.
    public mutating func uuid(uppercase: Bool = true) -> String {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            digits.withUTF8Buffer { hex in
                var i = 0
                for (word, shifts) in [(high, 0..<16), (low, 16..<32)] {
                    for k in shifts {
                        if k == 8 || k == 12 || k == 16 || k == 20 { out[i] = UInt8(ascii: "-"); i += 1 }
                        out[i] = hex[Int((word >> UInt64(60 - (k % 16) * 4)) & 0xF)]
                        i += 1
                    }
                }
            }
            return 36
        }
    }
}
