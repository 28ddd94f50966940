import APNSCore

/// The entitlements that decide pushes, from a provisioning profile or an executable's code signature.
public struct Entitlements: Equatable, Sendable {
    /// `TEAMID.bundle.id` (the bundle part may be a wildcard in a profile).
    public var applicationIdentifier: String?
    public var teamIdentifier: String?
    /// `development` or `production`; nil when the app has no Push Notifications capability.
    public var apsEnvironment: String?
    /// True for development signing.
    public var getTaskAllow: Bool?

    public init(
        applicationIdentifier: String? = nil, teamIdentifier: String? = nil, apsEnvironment: String? = nil,
        getTaskAllow: Bool? = nil
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.teamIdentifier = teamIdentifier
        self.apsEnvironment = apsEnvironment
        self.getTaskAllow = getTaskAllow
    }

    init(_ node: PropertyListNode) {
        // A macOS app's names come first with `com.apple.` (a `.provisionprofile`'s, a Mac app's signature).
        applicationIdentifier =
            node["application-identifier"]?.string ?? node["com.apple.application-identifier"]?.string
        teamIdentifier = node["com.apple.developer.team-identifier"]?.string
        apsEnvironment = node["aps-environment"]?.string ?? node["com.apple.developer.aps-environment"]?.string
        getTaskAllow = node["get-task-allow"]?.bool
    }

    /// The bundle id part of `application-identifier` (after `TEAMID.`).
    public var bundleID: String? {
        guard let id = applicationIdentifier, let dot = id.firstIndex(of: ".") else { return nil }
        return String(id[id.index(after: dot)...])
    }

    /// The team: the team-identifier entitlement, else the prefix of `application-identifier`.
    public var team: String? {
        teamIdentifier ?? applicationIdentifier.flatMap { $0.split(separator: ".").first.map(String.init) }
    }
}

extension APNSEnvironment {
    /// The environment tokens of an app signed with `aps-environment` `value` belong to.
    public init?(apsEnvironment value: String?) {
        switch value {
        case "development": self = .sandbox
        case "production": self = .production
        default: return nil
        }
    }
}
