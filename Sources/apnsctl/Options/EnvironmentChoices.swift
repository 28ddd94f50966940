/// The values a command's `--env` takes, for its help and its shell completion: `send` tries both
/// environments with `auto`, while `channel` talks to one, so completing `auto` there would offer a value
/// that is then refused (exit 64).
protocol EnvironmentChoices {
    /// The values completion offers, in help order.
    static var names: [String] { get }
    /// `--env`'s help paragraph.
    static var help: String { get }
}

/// `send --env`: sandbox, production, or auto (sandbox first, then production for `BadDeviceToken`).
enum SendEnvironments: EnvironmentChoices {
    static let names = ["sandbox", "production", "auto"]
    static let help = "APNs environment: sandbox (also development, dev), production (prod), or auto: sandbox first, then production for each device sandbox answers BadDeviceToken. Default: the certificate's only environment, else sandbox."
}

/// `channel --env`: channels do not cross environments, so one of the two.
enum SingleEnvironments: EnvironmentChoices {
    static let names = ["sandbox", "production"]
    static let help = "APNs environment: sandbox (also development, dev) or production (prod). Default: the certificate's only environment, else sandbox."
}
