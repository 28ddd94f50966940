import Testing

@testable import APNSHistory

/// `history --device`: a token in any case, a name as given, or the shortened form send's text lines print.
@Suite struct HistoryDeviceMatchTests {
    static let token = "3f2a" + String(repeating: "0", count: 56) + "9c1d"

    @Test func aDeviceIsItsTokenItsNameOrItsShortenedToken() {
        let cases: [(String, Bool)] = [
            (Self.token, true), (Self.token.uppercased(), true), ("my-iphone", true), ("My-iPhone", false),
            ("3f2a…9c1d", true), ("3F2A…9C1D", true), ("3f2a...9c1d", true), ("3f2…c1d", false), ("3f2a0…09c1d", true),
            ("3f2a…9c1e", false), ("3f2b…9c1d", false), ("3f2a…", false), ("…9c1d", false), ("3f2a…9c…1d", false),
            ("zz…9c1d", false), ("3f2a", false),
        ]
        for (filter, expected) in cases {
            #expect(
                HistoryQuery.DeviceMatch(filter).matches(target: Self.token, name: "my-iphone") == expected, "\(filter)"
            )
        }
        // The two ends cannot overlap: an eight-digit filter does not match a seven-digit target; and a broadcast's
        // channel id (base64) is no token.
        #expect(!HistoryQuery.DeviceMatch("abcd…bcde").matches(target: "abcdcde", name: nil))
        #expect(!HistoryQuery.DeviceMatch("abcd…1234").matches(target: "abcdXy+/1234", name: nil))
    }
}
