import APNSCore
import Testing

@Suite struct ISO8601Tests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (Int64(1_762_166_400), "2025-11-03T10:40:00Z"),
        (Int64(951_782_400), "2000-02-29T00:00:00Z"),
        (Int64(-1), "1969-12-31T23:59:59Z"),
    ])
    func formatsUTC(seconds: Int64, expected: String) {
        #expect(ISO8601.format(epochSeconds: seconds) == expected)
    }

    @Test func roundTripsCalendarDates() {
        let s = ISO8601.epochSeconds(year: 2026, month: 11, day: 3, hour: 10, minute: 40)
        #expect(ISO8601.format(epochSeconds: s) == "2026-11-03T10:40:00Z")
        #expect(ISO8601.format(epochMilliseconds: s * 1000 + 999) == "2026-11-03T10:40:00Z")
    }
}
