import Testing
@testable import APNSCore

/// Placeholder so the target builds; replaced by real tests as the module fills in.
@Suite struct APNSCoreSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
