import APNSSettings

/// The values a command's `--env` takes, for its help and its shell completion: `send` tries both
/// environments with `auto`, while `channel` talks to one, so completing `auto` there would offer a value
/// that is then refused (exit 64).
protocol EnvironmentChoices {
    /// The command whose `--env` this is (which of auto and both its parser takes).
    static var command: SettingCommand { get }
    /// The values completion offers, in help order.
    static var names: [String] { get }
    /// `--env`'s help paragraph.
    static var help: String { get }
    /// Whether `--concurrency` means anything (it is hidden from help and completion where not).
    static var offersConcurrency: Bool { get }
}

extension EnvironmentChoices {
    static var offersConcurrency: Bool { true }
}

/// `send --env`: sandbox, production, or auto (sandbox first, then production for `BadDeviceToken`).
enum SendEnvironments: EnvironmentChoices {
    static let command = SettingCommand.send
    static let names = ["sandbox", "production", "auto"]
    static let help =
        "APNs environment: sandbox (also development, dev), production (prod), or auto: sandbox first, then production for each device sandbox answers BadDeviceToken. Default: the certificate's only environment, else sandbox."
}

/// `channel --env`: channels do not cross environments, so one of the two.
enum SingleEnvironments: EnvironmentChoices {
    static let command = SettingCommand.channel
    static let names = ["sandbox", "production"]
    static let help =
        "APNs environment: sandbox (also development, dev) or production (prod). Default: the certificate's only environment, else sandbox."
}

/// `doctor --env`: one environment, or both (each probed once); the default is the certificate's, or both.
enum DoctorEnvironments: EnvironmentChoices {
    static let command = SettingCommand.doctor
    static let names = ["sandbox", "production", "both"]
    static let help =
        "Environments to probe: sandbox (also development, dev), production (prod) or both. Default: the certificate's environments; both for token auth. An environment named here must accept the credentials; with the default, one that accepts is enough."
    /// One probe per environment: there is nothing to run in parallel.
    static let offersConcurrency = false
}
