import APNSCore
import Testing

/// `EXPIRED 1 day ago`, not `1 days ago`, wherever a certificate's or a profile's days are said.
@Suite struct DayCountTests {
    @Test(arguments: [(0, "less than a day"), (1, "1 day"), (2, "2 days"), (365, "365 days"), (-1, "-1 days")])
    func oneDayIsSingular(_ days: Int, _ text: String) {
        #expect(DayCount.text(days) == text)
        #expect(DayCount.text(Int64(days)) == text)
    }
}
