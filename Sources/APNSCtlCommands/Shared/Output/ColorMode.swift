import APNSCore
import ArgumentParser
import APNSPlatform

/// `--color auto|always|never`, as git and ls spell it.
enum ColorMode: String, CaseIterable, ExpressibleByArgument {
    case auto
    case always
    case never

    /// Whether output on `fd` gets colour in `world`: `auto` only on a terminal, with `NO_COLOR` unset or empty
    /// (no-color.org: an empty one does not count) and `TERM` not `dumb` (CLI.md); `always` and `never` decide alone.
    func enabled(fd: Int32, in world: CommandWorld) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            return (world.variable("NO_COLOR") ?? "").isEmpty && world.variable("TERM") != "dumb" && world.streams.isTerminal(fd)
        }
    }
}
