import APNSTestSupport
import Foundation
import Testing

/// The compiler checks `Sendable` and lifetimes only where the code lets it: `@unchecked Sendable` is kept for
/// synchronisation primitives and owners of C objects, and `unowned(unsafe)` for nothing, so a store guarded by
/// a comment instead of a `LockedValue`, or a callback route that can outlive its session, fails here.
@Suite struct ConcurrencyEscapeHatchTests {
    /// Types that may say `@unchecked Sendable`: locks and conditions, a C object or descriptor they own.
    static let primitives: Set<String> = [
        "Lock", "Condition", "LockedValue", "Socket", "FileLock", "Handle", "WakePipe", "WaitableValue", "OutputSink",
        "TLSContext", "PublicKey", "PrivateKey", "SecretBytes", "X509Certificate",
    ]

    /// Every Swift source file of the product, with its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Repository.path("Sources")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    @Test func onlyPrimitivesAreUncheckedSendable() throws {
        let all = try Self.sources()
        #expect(!all.isEmpty)
        for (path, text) in all {
            for line in text.split(separator: "\n") where line.contains("@unchecked Sendable") && !line.contains("///") {
                // `final class Name: @unchecked Sendable`, `struct Name: @unchecked Sendable`, `extension Name: …`.
                let words = line.split(whereSeparator: { " :<".contains($0) })
                let name = words.firstIndex { ["class", "struct", "extension"].contains($0) }.flatMap { i in
                    i + 1 < words.count ? String(words[i + 1]) : nil
                } ?? ""
                #expect(Self.primitives.contains(name), "\(path): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }

    @Test func nothingIsUnownedUnsafe() throws {
        for (path, text) in try Self.sources() where text.contains("unowned(unsafe)") {
            Issue.record("\(path) uses unowned(unsafe)")
        }
    }
}
