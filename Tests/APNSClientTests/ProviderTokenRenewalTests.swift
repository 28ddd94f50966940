import APNSCore
import APNSPlatform
import Testing

@testable import APNSClient

/// A provider token renewed in a run that outlasts it: requests written once it is 50 minutes old carry a new
/// one, one new token per 50 minutes, and a batch's requests keep sharing one header list.
@Suite struct ProviderTokenRenewalTests {
    static let start: Int64 = 1_800_000_000

    static func job(_ device: String, headers: [HeaderField]) -> APNSRequest {
        APNSRequest(method: "POST", path: "/3/device/\(device)", headers: headers, body: [])
    }

    static let headers = [
        HeaderField("apns-topic", "com.example.demo"), HeaderField("authorization", "bearer first"),
        HeaderField("apns-push-type", "alert"),
    ]

    @Test func requestsMadeOnceTheTokenIsDueCarryANewOne() {
        let clock = LockedValue<Int64>(Self.start)
        let signed = LockedValue<[Int64]>([])
        let renewal = ProviderTokenRenewal(
            issuedAt: Self.start, maximumAge: 3000, now: { clock.current },
            sign: { time in
                signed.withLock { $0.append(time) }
                return "token-\(time - Self.start)"
            })
        // Younger than 50 minutes: the job goes as it was made.
        clock.withLock { $0 += 2999 }
        let young = renewal.renewing(Self.job("a", headers: Self.headers))
        #expect(young.headers == Self.headers)
        #expect(signed.current.isEmpty)
        // 50 minutes: one new token, for this job and the next ones, in the header's place.
        clock.withLock { $0 += 1 }
        let due = renewal.renewing(Self.job("b", headers: Self.headers))
        let later = renewal.renewing(Self.job("c", headers: Self.headers))
        #expect(due.headers.map(\.name) == Self.headers.map(\.name))
        #expect(due.headers.value(of: "authorization") == "bearer token-3000")
        #expect(later.headers == due.headers)
        #expect(due.path == "/3/device/b" && later.path == "/3/device/c")
        #expect(signed.current == [Self.start + 3000])
        // The next is due 50 minutes after the new token was issued, not after the first.
        clock.withLock { $0 += 2999 }
        _ = renewal.renewing(Self.job("d", headers: Self.headers))
        #expect(signed.current.count == 1)
        clock.withLock { $0 += 1 }
        let again = renewal.renewing(Self.job("e", headers: Self.headers))
        #expect(again.headers.value(of: "authorization") == "bearer token-6000")
        #expect(signed.current == [Self.start + 3000, Self.start + 6000])
    }

    @Test func aTokenThatCannotBeSignedIsAskedForAMinuteLater() {
        let clock = LockedValue<Int64>(Self.start + 3000)
        let tries = LockedValue(0)
        let renewal = ProviderTokenRenewal(
            issuedAt: Self.start, maximumAge: 3000, now: { clock.current },
            sign: { time in
                tries.withLock { $0 += 1 }
                return tries.current == 1 ? nil : "second"
            })
        #expect(renewal.renewing(Self.job("a", headers: Self.headers)).headers == Self.headers)
        clock.withLock { $0 += 59 }
        #expect(renewal.renewing(Self.job("b", headers: Self.headers)).headers == Self.headers)
        #expect(tries.current == 1)
        clock.withLock { $0 += 1 }
        let renewed = renewal.renewing(Self.job("c", headers: Self.headers))
        #expect(renewed.headers.value(of: "authorization") == "bearer second")
    }

    @Test func aRequestWithoutABearerTokenIsLeftAsItIs() {
        let renewal = ProviderTokenRenewal(
            issuedAt: Self.start, maximumAge: 3000, now: { Self.start + 4000 }, sign: { _ in "new" })
        let plain = [HeaderField("apns-topic", "com.example.demo")]
        #expect(renewal.renewing(Self.job("a", headers: plain)).headers == plain)
        let basic = [HeaderField("authorization", "Basic abc")]
        #expect(renewal.renewing(Self.job("b", headers: basic)).headers == basic)
    }
}
