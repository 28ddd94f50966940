import Testing
@testable import APNSMock

/// Placeholder so the target builds; replaced by real tests as the module fills in.
@Suite struct APNSMockSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
