import APNSCore
import APNSPlatform

/// Makes the `apns-id` and `apns-unique-id` values the mock answers with (formatted by `UUIDString`) from a fast
/// per-loop generator (SplitMix64, seeded once from the system), because asking the kernel for 32 random bytes
/// per answer cost the mock a third of its throughput. These ids are labels, not secrets.
public struct MockIDGenerator: Sendable {
    private var state: UInt64

    /// Seeded from the system generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random version-4 UUID, upper case as APNs generates `apns-id`, or lower case.
    public mutating func uuid(uppercase: Bool = true) -> String {
        UUIDString.version4(high: next(), low: next(), uppercase: uppercase)
    }
}
