import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

/// auto, always or never, as git and ls spell them: the setting's one type.
extension ColorChoice: ExpressibleByArgument {
    /// The argument parser's `transform:` for `--color`: read by `SettingParser`, as `APNSCTL_COLOR` and a
    /// profile's `color` are, so a bad value gets the same message naming the flag (and a did-you-mean), and
    /// any case is taken.
    @Sendable static func argument(_ text: String) throws -> ColorChoice {
        try SettingParser.parseFlag(text, for: .color, command: .send)
    }

    /// The values, for shell completion.
    static let completion = CompletionKind.list(allCases.map(\.rawValue))

    /// Whether output on `fd` gets colour in `world`: `auto` only on a terminal, with `NO_COLOR` unset or empty
    /// (no-color.org: an empty one does not count) and `TERM` not `dumb` (CLI.md); `always` and `never` decide alone.
    func enabled(fd: Int32, in world: CommandWorld) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            return (world.variable("NO_COLOR") ?? "").isEmpty && world.variable("TERM") != "dumb"
                && world.streams.isTerminal(fd)
        }
    }
}
