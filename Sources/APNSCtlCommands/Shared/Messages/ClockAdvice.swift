import APNSClient
import APNSCore
import APNSCrypto

/// What apnsctl says when this machine's clock looks wrong. Certificates and provider tokens are dated by it,
/// so a wrong clock shows up as a server certificate "not yet valid", a token APNs calls expired or invalid
/// moments after it was signed, or a server whose `Date` is far from it: each is blamed on the clock, where
/// the plain message would send the user to the CA or to a revoked key.
enum ClockAdvice {
    /// What to do, said after each of them.
    static let checkClock = "compare date -u with a time server's, or turn on NTP (timedatectl set-ntp true)"

    /// Said after a server certificate refused for its dates.
    static let certificateDates =
        "this machine's clock may be wrong (certificates are checked against it): " + checkClock

    /// A server's `Date` further than this from this machine's clock (seconds) is worth saying: beyond network
    /// delays and a server's own small drift.
    static let tolerableSkew: Int64 = 300

    /// A token signed this recently (seconds) has most of its hour left, so APNs calling it expired or invalid
    /// points at the clock, not at the token's age.
    static let freshToken: Int64 = 60

    /// The warning for a token refused as expired or invalid, when it was signed `age` seconds ago by this
    /// machine's clock; nil when the refusal does not point at the clock.
    static func tokenRefused(_ reason: APNSReason, age: Int64) -> String? {
        switch reason {
        case .expiredProviderToken where age >= 0 && age < 3_000:
            return "APNs answered ExpiredProviderToken to a provider token this machine signed \(duration(age)) ago "
                + "(APNs takes one for an hour): APNs dates the token by its own clock, so this machine's clock "
                + "is probably wrong: \(checkClock), then send again with --no-token-cache"
        case .invalidProviderToken where age >= 0 && age <= freshToken:
            // The ids are the likelier cause: said first, so a wrong team id is not mended by changing the clock.
            return "APNs answered InvalidProviderToken to a provider token this machine signed \(duration(age)) ago: "
                + "check the ids first (--team-id is your team's, --key-id the key's, as in AuthKey_KEYID.p8); "
                + "if they are right, this machine's clock may be ahead of APNs' (a token dated in "
                + "the future is refused so): \(checkClock), then send again with --no-token-cache"
        default:
            return nil
        }
    }

    /// The warning for a server whose `Date` header (`header`) is more than `tolerableSkew` from `now`; nil
    /// when it is close, or not a date.
    static func serverDate(_ header: String, now: Int64) -> String? {
        guard let server = HTTPDate.epochSeconds(header) else { return nil }
        let skew = now - server
        guard abs(skew) > tolerableSkew else { return nil }
        return "this machine's clock is \(duration(abs(skew))) \(skew > 0 ? "ahead of" : "behind") the server's "
            + "(its Date header: \(PrintableText.escapingControls(header))): certificates and provider tokens are "
            + "checked against it, so APNs may refuse them: \(checkClock)"
    }

    /// `45 s`, `7 min`, `2 h 5 min`, `3 days`.
    static func duration(_ seconds: Int64) -> String {
        if seconds < 120 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return "\(hours / 24) days"
    }
}

/// Watches one run's answers for the signs of a wrong clock (`ClockAdvice`) and says each once, after the
/// results. Results arrive on the sender's thread, one at a time.
final class ClockWatch {
    /// When the token on the requests was issued: the first token's `iat`, or the renewal's latest token.
    private let issuedAt: () -> Int64?
    private let now: () -> Int64
    private var checkedDate = false
    private var tokenWarning: String?
    private var dateWarning: String?

    /// `bearerToken`: the provider token sent, if any (its `iat` dates it), and `renewal`, how a long run replaces
    /// it; `now`: this machine's clock.
    init(bearerToken: String?, renewal: ProviderTokenRenewal? = nil, now: @escaping () -> Int64) {
        // A renewal knows the first token's time already, and then the time of the one requests carry.
        let first = renewal == nil ? bearerToken.flatMap { ProviderToken.Parts($0)?.issuedAt } : nil
        issuedAt = { renewal?.issuedAt ?? first }
        self.now = now
    }

    /// Notes what `result` says about the clock: the first `Date` header, and a token refusal, dated when it
    /// came by the token the requests then carried (a long run renews its token, and may end hours after it).
    func note(_ result: PushResult) {
        if !checkedDate, let date = result.response?.headers.value(of: "date") {
            checkedDate = true
            dateWarning = ClockAdvice.serverDate(date, now: now())
        }
        if tokenWarning == nil, case .known(let reason)? = result.reason,
            reason == .expiredProviderToken || reason == .invalidProviderToken, let issuedAt = issuedAt()
        {
            tokenWarning = ClockAdvice.tokenRefused(reason, age: now() - issuedAt)
        }
    }

    /// The warnings the answers gave, each once.
    var warnings: [String] { [tokenWarning, dateWarning].compactMap { $0 } }
}
