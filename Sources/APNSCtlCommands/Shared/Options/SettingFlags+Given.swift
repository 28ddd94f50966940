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
        // One cast per property: each property type's first cast scans the runtime's conformance records.
        for child in Mirror(reflecting: parsed).children {
            guard let property = child.value as? any ParsedProperty else { continue }
            if property.isOptionGroup {
                collect(property.parsedValue, settings: settings, into: &flags)
                continue
            }
            guard let label = child.label, let setting = settings[String(label.drop { $0 == "_" }).lowercased()] else {
                continue
            }
            flags.set(setting, givenValue(property.parsedValue))
        }
    }

    /// A property's value as given: nil, false and an empty list are "not given". A cast unwraps an optional,
    /// so `nil` matches no case; a type not listed here reaches no setting, which the declaration check finds.
    private static func givenValue(_ value: Any) -> Given? {
        switch value {
        // Concrete types first: a cast to a protocol scans the runtime's conformance records.
        case let checked as SettingValue: return .value(checked)
        case let on as Bool: return on ? .text(["true"]) : nil
        case let list as [String]: return list.isEmpty ? nil : .text(list)
        case let text as String: return .text([text])
        case let typed as any SettingArgumentValue: return .value(typed.settingValue)
        default: return nil
        }
    }
}

/// An `@Option`, `@Flag` or `@OptionGroup` after parsing: its value, whatever its type (a group's value is
/// the group, whose properties are walked in turn).
protocol ParsedProperty {
    var parsedValue: Any { get }
    var isOptionGroup: Bool { get }
}

extension Option: ParsedProperty {
    var parsedValue: Any { wrappedValue }
    var isOptionGroup: Bool { false }
}

extension Flag: ParsedProperty {
    var parsedValue: Any { wrappedValue }
    var isOptionGroup: Bool { false }
}

extension OptionGroup: ParsedProperty {
    var parsedValue: Any { wrappedValue }
    var isOptionGroup: Bool { true }
}
