import APNSHistory
import Testing

@testable import APNSCtlCommands

/// `history show`'s closing note: Apple's Push Notifications Console looks up the unique-ids of Apple's sandbox
/// only, so a mock's (or another server's) accepted results get no note sending the user there.
@Suite struct HistoryOutputTests {
    static func entry(endpoint: String, environment: String = "sandbox") -> HistoryEntry {
        var result = HistoryResult(target: String(repeating: "ab", count: 32), durationMs: 3)
        result.status = 200
        result.apnsID = "7D1B6F9E-4C2A-4F51-9E2B-0C8D3A6B5E41"
        result.apnsUniqueID = "0F3C8A52-9B1D-4E67-A2C4-5D8E7F6A1B90"
        return HistoryEntry(
            started: 0, durationMs: 3, kind: .devices, environment: environment, endpoints: [endpoint],
            credential: "certificate", payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), results: [result])
    }

    /// `history show`'s lines for an entry that holds its results.
    static func showText(_ e: HistoryEntry) throws -> [String] {
        var lines: [String] = []
        let results: HistoryOutput.Results = { body in e.results.forEach(body) }
        try HistoryOutput.showText(e, results: results) { lines.append($0) }
        return lines
    }

    /// A result answered by another server than the entry's first (`--env auto`) is judged by its own.
    @Test func eachResultIsJudgedByTheServerThatAnsweredIt() throws {
        var byMock = Self.entry(endpoint: "https://api.sandbox.push.apple.com:443")
        byMock.results[0].endpoint = "https://127.0.0.1:8443"
        #expect(try !Self.showText(byMock).contains { $0.hasPrefix("Apple's Push Notifications Console") })
        var byApple = Self.entry(endpoint: "https://127.0.0.1:8443")
        byApple.results[0].endpoint = "https://api.sandbox.push.apple.com:443"
        #expect(try Self.showText(byApple).contains { $0.hasPrefix("Apple's Push Notifications Console") })
    }

    @Test(arguments: [
        ("https://api.sandbox.push.apple.com:443", "sandbox", true),
        ("https://API.development.push.apple.com", "sandbox", true),
        ("https://api.push.apple.com:443", "production", false),
        ("https://127.0.0.1:8443", "sandbox", false),
        ("https://apns-proxy.example.com", "sandbox", false),
    ])
    func theDeliveryLogNoteIsForAppleSandboxOnly(endpoint: String, environment: String, noted: Bool) throws {
        let text = try Self.showText(Self.entry(endpoint: endpoint, environment: environment))
        #expect(text.contains { $0.hasPrefix("Apple's Push Notifications Console looks up") } == noted, "\(text)")
    }
}
