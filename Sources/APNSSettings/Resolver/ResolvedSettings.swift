import APNSClient
import APNSCore

/// One command's settings after precedence (flag, `APNSCTL_*` variable, profile, default): typed values,
/// each with its origin. What the commands build their plans from, what `-v` and `config show` print.
public struct ResolvedSettings: Sendable, Equatable {
    public let command: SettingCommand
    public let location: SettingsLocation
    /// The parsed settings file, when there is one.
    public let file: SettingsFile?
    /// The profile in use and where it was chosen (`-p`, `APNSCTL_PROFILE`, `default-profile`).
    public let profile: Sourced<String>?
    /// Setting name → value and origin, for the settings that have a value; read through `SettingKey`s.
    let values: [String: Sourced<SettingValue>]
    /// The device names this run knows.
    public let devices: DeviceNames
    /// A key id given above the layer that supplied the credentials (a key id belongs to its key).
    let strandedKeyID: Sourced<SettingValue>?
    /// Where a key id below the credentials' layer was given, unread (`APNSCTL_KEY_ID` beside `--auth-key`): named
    /// when the key id is then missing.
    var ignoredKeyID: SettingOrigin? = nil
    /// Where a certificate below the credentials' layer was given, unread (a profile's `cert` beside `--key`).
    var ignoredCertificate: SettingOrigin? = nil
    /// Where a key below the credentials' layer was given, unread (a profile's `key` beside `--cert`).
    var ignoredKey: SettingOrigin? = nil
    /// `APNSCTL_KEY`, `key in profile dev (…:3)`: where an unread key was given.
    public var ignoredKeyLabel: String? { ignoredKey.map { Self.name($0, Setting.of(.key).name) } }
    /// `APNSCTL_KEY_ID`, `key-id in profile dev (…:3)`: where an unread key id was given.
    public var ignoredKeyIDLabel: String? { ignoredKeyID.map { Self.name($0, Setting.of(.keyID).name) } }
    /// Credential variables set to nothing (`APNSCTL_AUTH_KEY=` from a CI secret this job does not get: a fork's
    /// pull request): unset as far as settings go, but named when no credential is found.
    var emptyCredentialVariables: [String] = []

    init(
        command: SettingCommand, location: SettingsLocation, file: SettingsFile?, profile: Sourced<String>?,
        values: [String: Sourced<SettingValue>], devices: DeviceNames, strandedKeyID: Sourced<SettingValue>?
    ) {
        self.command = command
        self.location = location
        self.file = file
        self.profile = profile
        self.values = values
        self.devices = devices
        self.strandedKeyID = strandedKeyID
    }

    /// The value of `key`'s setting, as its type, with its origin.
    public subscript<Value>(key: SettingKey<Value>) -> Sourced<Value>? {
        guard let s = values[key.name], let v = Value(setting: s.value) else { return nil }
        return Sourced(v, from: s.origin)
    }

    /// A boolean setting (`insecure`, `minify`, `quiet`, …): false unless set true somewhere.
    public func isOn(_ key: SettingKey<Bool>) -> Bool { self[key]?.value == true }

    /// The untyped value of `setting`, for listing every setting (`config show`, `-v`).
    func value(of setting: Setting) -> Sourced<SettingValue>? { values[setting.name] }

    /// Every setting of the command in catalog order, with its value if it has one: what `config show` lists.
    public var listing: [(setting: Setting, value: Sourced<SettingValue>?)] {
        SettingCatalog.settings(for: command).map { ($0, values[$0.name]) }
    }
}
