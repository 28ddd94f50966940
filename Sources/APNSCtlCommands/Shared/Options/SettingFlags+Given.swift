import APNSSettings
import ArgumentParser

/// The setting flags of a parsed command, found by property name: a property whose name is a setting's
/// name without dashes (any case: `caFile` is `ca-file`, `keyID` is `key-id`) holds that setting's flag,
/// in the command itself or in any option group inside it. No command lists its setting flags, so a flag
/// declared and catalogued is never left unread; `SettingDeclarationTests` checks every setting of every
/// command this way.
extension SettingFlags {
    /// The setting flags given in `parsed` (a parsed command or option group) for `command`'s settings.
    static func commandLine(of parsed: Any, for command: SettingCommand) -> SettingFlags {
        var flags = SettingFlags()
        let settings = Dictionary(
            SettingCatalog.settings(for: command).map { ($0.propertyName.lowercased(), $0) },
            uniquingKeysWith: { a, _ in a })
        collect(parsed, settings: settings, into: &flags)
        return flags
    }

    private static func collect(_ parsed: Any, settings: [String: Setting], into flags: inout SettingFlags) {
        for child in Mirror(reflecting: parsed).children {
            // A property wrapper's storage is named `_name`; a property without the underscore is the command's
            // own state (a replay's entry), never a flag, and is not cast at all.
            guard let label = child.label, label.first == "_" else { continue }
            switch Property(child.value) {
            case .leaf(let given):
                if let setting = settings[label.dropFirst().lowercased()] { flags.set(setting, given) }
            case .group(let group):
                collect(group, settings: settings, into: &flags)
            case .other:
                continue
            }
        }
    }

    /// A parsed property: an option or flag of a type setting flags have, with its value as given (nil, false and
    /// an empty list are "not given"), or an option group, or neither. A setting flag of a type not listed here
    /// reaches no setting, which the declaration check finds.
    private enum Property {
        case leaf(Given?)
        case group(Any)
        case other

        init(_ property: Any) {
            // Concrete wrapper types, not a protocol: the first cast of each type to a protocol scans all of the
            // runtime's conformance records (about 4,000), the most costly step of reading a command line.
            switch property {
            case let option as Option<SettingValue?>: self = .leaf(option.wrappedValue.map { .value($0) })
            case let option as Option<String?>: self = .leaf(option.wrappedValue.map { .text([$0]) })
            case let flag as Flag<Bool>: self = .leaf(flag.wrappedValue ? .text(["true"]) : nil)
            case let option as Option<[String]>:
                self = .leaf(option.wrappedValue.isEmpty ? nil : .text(option.wrappedValue))
            case let option as Option<String>: self = .leaf(.text([option.wrappedValue]))
            case let option as Option<ColorChoice?>: self = .leaf(option.wrappedValue.map { .value(.color($0)) })
            case is Argument<String?>, is Argument<[String]>: self = .other
            case let group as any ParsedOptionGroup: self = .group(group.parsedGroup)
            default: self = .other
            }
        }
    }
}

/// An `@OptionGroup` after parsing: the group, whose properties are walked in turn.
protocol ParsedOptionGroup {
    var parsedGroup: Any { get }
}

extension OptionGroup: ParsedOptionGroup {
    var parsedGroup: Any { wrappedValue }
}
