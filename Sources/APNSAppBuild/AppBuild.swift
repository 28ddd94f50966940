import APNSCore

/// What an app build says about its push tokens: read from a `.mobileprovision`, or from an `.ipa`,
/// `.xcarchive` or `.app` (its `Info.plist`, its `embedded.mobileprovision` and the entitlements signed into
/// its main executable).
public struct AppBuild: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case provisioningProfile = "provisioning-profile"
        case app
    }

    /// The path as given.
    public var path: String
    public var kind: Kind
    /// The app inside an archive or folder (`Payload/Demo.app`); nil for a profile or a bare `.app`.
    public var appPath: String?
    /// `CFBundleIdentifier`, or for a profile the bundle part of its `application-identifier` (maybe a
    /// wildcard).
    public var bundleID: String?
    /// `CFBundleExecutable`.
    public var executableName: String?
    /// The embedded (or given) provisioning profile; nil for an App Store download.
    public var profile: ProvisioningProfile?
    /// The entitlements signed into the main executable; nil when it carries none.
    public var executableEntitlements: Entitlements?

    /// `aps-environment` as iOS sees it: the executable's when it is signed with entitlements, else the profile's.
    public var apsEnvironment: String? {
        if let executableEntitlements { return executableEntitlements.apsEnvironment }
        return profile?.entitlements.apsEnvironment
    }

    /// An app with no embedded profile but signed entitlements: downloaded from the App Store, whose tokens are
    /// production (its entitlements say `production`). One signed for development is not (a simulator's build).
    public var isAppStoreDownload: Bool {
        kind == .app && profile == nil && executableEntitlements != nil && apsEnvironment != "development"
            && executableEntitlements?.getTaskAllow != true
    }

    /// An Xcode archive signed for development, as Xcode signs one before Distribute App re-signs its app for
    /// TestFlight, the App Store or ad hoc, whose tokens are production: which of the two builds made the devices'
    /// tokens cannot be told, so it names no environment.
    public var isArchiveBeforeDistribution: Bool {
        kind == .app && appPath?.hasPrefix("Products/Applications/") == true && apsEnvironment == "development"
    }

    /// Signed, yet with no `aps-environment` iOS takes: the app gets no device token.
    public var lacksPush: Bool { tokenEnvironment == nil && !isUnsigned && !isArchiveBeforeDistribution }

    /// An app with neither a profile nor signed entitlements: a simulator's or an unsigned build, which says
    /// nothing about its tokens (a simulator's are sandbox). Never an App Store download, which is always signed.
    public var isUnsigned: Bool { kind == .app && profile == nil && executableEntitlements == nil }

    /// The environment the build's device tokens belong to; nil when it has no Push Notifications capability
    /// (or an `aps-environment` no one knows), is unsigned, or is an archive before distribution.
    public var tokenEnvironment: APNSEnvironment? {
        isArchiveBeforeDistribution ? nil : APNSEnvironment(apsEnvironment: apsEnvironment)
    }

    /// The team: the profile's, else the executable's entitlements'.
    public var teamID: String? { profile?.team ?? executableEntitlements?.team }

    /// The bundle id a push's topic defaults to: `bundleID` unless it is a wildcard.
    public var topic: String? {
        guard let bundleID, !bundleID.contains("*"), !bundleID.isEmpty else { return nil }
        return bundleID
    }

    /// Where the executable's signature and the profile (or Info.plist) say different things. iOS goes by the
    /// executable's entitlements, so these are worth a warning, not a refusal.
    public var disagreements: [String] {
        var found: [String] = []
        let profileEntitlements = profile?.entitlements
        if let signed = executableEntitlements, let profileEntitlements {
            if signed.apsEnvironment != profileEntitlements.apsEnvironment {
                found.append(
                    "aps-environment: the executable is signed with \(signed.apsEnvironment ?? "none"), the profile says \(profileEntitlements.apsEnvironment ?? "none"); iOS uses the executable's"
                )
            }
            if let a = signed.applicationIdentifier, let b = profileEntitlements.applicationIdentifier,
                !Self.matches(a, pattern: b)
            {
                found.append("application-identifier: the executable is signed for \(a), the profile is for \(b)")
            }
        }
        if kind == .app, let bundleID, let profileBundle = profileEntitlements?.bundleID,
            !Self.matches(bundleID, pattern: profileBundle)
        {
            found.append("bundle id: Info.plist says \(bundleID), the profile is for \(profileBundle)")
        }
        return found
    }

    /// Whether `value` matches a profile's identifier, whose last part may be `*`.
    static func matches(_ value: String, pattern: String) -> Bool {
        if pattern.hasSuffix("*") { return value.hasPrefix(String(pattern.dropLast())) }
        return value == pattern
    }
}
