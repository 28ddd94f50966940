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

    /// Reads the entitlements in `node`; `name` names the list in problems.
    init(_ node: PropertyListNode, name: String) throws(AppBuildProblem) {
        guard node.isDictionary else {
            throw .corrupt(path: name, reason: "its entitlements are \(node.typeName), not a dictionary")
        }
        // A macOS app's names come first with `com.apple.` (a `.provisionprofile`'s, a Mac app's signature).
        let mac = try node.string("com.apple.application-identifier", in: name)
        applicationIdentifier = try node.string("application-identifier", in: name) ?? mac
        teamIdentifier = try node.string("com.apple.developer.team-identifier", in: name)
        let macAPS = try node.string("com.apple.developer.aps-environment", in: name)
        apsEnvironment = try node.string("aps-environment", in: name) ?? macAPS
        getTaskAllow = try node.bool("get-task-allow", in: name)
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
