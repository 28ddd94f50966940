/// What the machine apnsctl runs on can do beyond APNs.
struct CommandHost: Sendable {
    /// macOS, where Xcode's `xcrun simctl` reaches the iOS simulators.
    var runsSimulators: Bool

    static let current: CommandHost = {
        #if os(macOS)
            CommandHost(runsSimulators: true)
        #else
            CommandHost(runsSimulators: false)
        #endif
    }()
}
