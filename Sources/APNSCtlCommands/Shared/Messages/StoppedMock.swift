import APNSClient
import APNSCore
import APNSSettings

/// `-p mock` after the mock stopped: its mock.json still names the port, where nothing answers now. The
/// failure's own advice asks about --endpoint and --env, which the user never gave (`send`, `channel` and
/// `doctor`).
enum StoppedMock {
    /// The warning when the endpoint came from a mock profile and a connection was refused (a timeout would not
    /// say the mock is gone); nil otherwise.
    static func warning(_ settings: ResolvedSettings, failures: [TransportFailure]) -> String? {
        guard case .mock? = settings[.endpoint]?.origin,
            failures.contains(where: {
                if case .connect(.connect) = $0 { return true } else { return false }
            })
        else { return nil }
        return advice(settings)
    }

    /// What to do when nothing answers at the endpoint a mock profile gave; nil when the endpoint came from
    /// elsewhere.
    static func advice(_ settings: ResolvedSettings) -> String? {
        guard case .mock(let profile, let file)? = settings[.endpoint]?.origin else { return nil }
        let shown = PrintableText.escapingControls(file)
        return "-p \(profile): nothing answers at the endpoint \(shown) names, so the mock that wrote it is no longer "
            + "running; start it again (apnsctl mock --detach) and try once more"
    }
}
