import APNSClient
import APNSCore

/// `--env auto`'s words on a result that was sent to the second environment after the first answered
/// `BadDeviceToken`: which environment the token belongs to (and so which kind of build made it),
/// or that both refused it.
extension PushResult {
    /// `(sandbox answered BadDeviceToken: this token belongs to production: a TestFlight/App Store build)`,
    /// for a result from the second environment; nil otherwise, and for a refusal by both.
    var environmentHint: String? {
        guard let first = badDeviceTokenIn, let here = environment, !refusedByBothEnvironments else { return nil }
        return
            "(\(first.rawValue) answered BadDeviceToken: this token belongs to \(here.rawValue): \(Self.build(for: here)))"
    }

    /// Both environments answered `BadDeviceToken`.
    var refusedByBothEnvironments: Bool {
        guard badDeviceTokenIn != nil, case .known(.badDeviceToken)? = reason else { return false }
        return true
    }

    /// The rejection text when both environments refused the token.
    var bothEnvironmentsRefusedText: String {
        "Both environments refused it: sandbox and production answered BadDeviceToken, so the token is not a device token for this topic in either; check it is this app's token and was copied whole."
    }

    /// Which builds get tokens for `environment`.
    static func build(for environment: APNSEnvironment) -> String {
        environment == .production ? "a TestFlight/App Store build" : "a debug build from Xcode"
    }
}
