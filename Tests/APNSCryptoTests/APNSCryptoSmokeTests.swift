import Testing
@testable import APNSCrypto

/// Placeholder so the target builds; replaced by real tests as the module fills in.
@Suite struct APNSCryptoSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
