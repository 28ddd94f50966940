import Testing
@testable import APNSHTTP2

/// Placeholder so the target builds; replaced by real tests as the module fills in.
@Suite struct APNSHTTP2SmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
