import APNSCore
import APNSCrypto

/// A `.mobileprovision` file: a CMS SignedData structure whose content is an XML property list. The
/// signature is Apple's and is not verified: the content is read, no trust is decided.
public struct ProvisioningProfile: Equatable, Sendable {
    /// What kind of distribution the profile signs for, which decides `aps-environment`.
    public enum Kind: String, Sendable {
        case development
        case adHoc = "ad-hoc"
        case appStore = "app-store"
        case enterprise

        /// As people say it: `ad hoc`, `App Store`.
        public var label: String {
            switch self {
            case .development: return "development"
            case .adHoc: return "ad hoc"
            case .appStore: return "App Store"
            case .enterprise: return "enterprise"
            }
        }
    }

    public var name: String?
    public var teamIdentifier: String?
    /// Seconds since 1970.
    public var expires: Int64?
    public var provisionedDevices: Int
    public var provisionsAllDevices: Bool
    public var entitlements: Entitlements

    /// Development when `get-task-allow` is true, ad hoc when devices are listed, enterprise when all devices
    /// are provisioned, else App Store (APNS.md §13).
    public var kind: Kind {
        if entitlements.getTaskAllow == true { return .development }
        if provisionsAllDevices { return .enterprise }
        if provisionedDevices > 0 { return .adHoc }
        return .appStore
    }

    /// The team: `TeamIdentifier`, else the entitlements'.
    public var team: String? { teamIdentifier ?? entitlements.team }

    /// The most a profile file may hold: real ones are 10 to 100 KB (a team's hundred devices included).
    public static let maximumSize = 4 << 20

    /// Reads a profile's DER bytes; `name` names the file (or archive entry) in problems.
    public init(der: [UInt8], name: String) throws(AppBuildProblem) {
        guard let cms = try? CMSSignedData(der: der) else {
            throw .corrupt(path: name, reason: "not a provisioning profile (not a DER CMS structure)")
        }
        guard cms.isSignedData, let content = cms.content else {
            throw .corrupt(path: name, reason: "a CMS structure without signed content")
        }
        let document = try PropertyListDocument(bytes: content, name: name)
        let top = document.top
        guard top["Entitlements"] != nil || top["TeamIdentifier"] != nil else {
            throw .corrupt(path: name, reason: "a signed property list without a profile's keys")
        }
        self.name = try top.string("Name", in: name)
        teamIdentifier = try top.items("TeamIdentifier", in: name)?.first?.string
        expires = try top.date("ExpirationDate", in: name)
        provisionedDevices = try top.items("ProvisionedDevices", in: name)?.count ?? 0
        provisionsAllDevices = try top.bool("ProvisionsAllDevices", in: name) ?? false
        entitlements =
            try top["Entitlements"].map { node throws(AppBuildProblem) in
                try Entitlements(node, name: name)
            } ?? Entitlements()
    }
}
