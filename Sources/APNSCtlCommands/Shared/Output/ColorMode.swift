import APNSCore
import ArgumentParser
import APNSPlatform

/// `--color auto|always|never`, as git and ls spell it.
enum ColorMode: String, CaseIterable, ExpressibleByArgument {
    case auto
    case always
    case never

    /// Whether output on `fd` gets colour: `auto` only on a terminal, with `NO_COLOR` unset or empty
    /// and `TERM` not `dumb` (CLI.md); `always` and `never` decide alone.
    func enabled(fd: Int32) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return Environment.colorAllowed(fd: fd)
        }
    }
}
