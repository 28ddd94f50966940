import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

/// auto, always or never, as git and ls spell them: the setting's one type, parsed by the argument parser
/// as an enumeration (its help lists the values, and a bad one is the parser's usage error, as before).
extension ColorChoice: ExpressibleByArgument, SettingArgumentValue {
    var settingValue: SettingValue { .color(self) }

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
