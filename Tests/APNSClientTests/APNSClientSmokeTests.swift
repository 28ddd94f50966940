import Testing
@testable import APNSClient

/// Placeholder so the target builds; replaced by real tests as the module fills in.
@Suite struct APNSClientSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
