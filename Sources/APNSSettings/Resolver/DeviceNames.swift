import APNSCore

/// The device names a run knows: the file's `[devices]`, overridden by the chosen profile's own
/// `[profiles.NAME.devices]`. `-d VALUE` and each `--devices` line is a token or a name, never both (names
/// made only of hex digits are refused when the file is read).
public struct DeviceNames: Sendable, Equatable {
    /// One known name.
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let value: TOMLValue
        /// Where it was written: `PATH:LINE`, and the profile when it is the profile's own.
        public let file: String
        public let line: Int
        public let profile: String?
    }

    /// A value resolved to a token, with the name it was given by, if any.
    public struct Device: Sendable, Equatable {
        public let token: DeviceToken
        public let name: String?
    }

    public private(set) var entries: [String: Entry] = [:]
    /// Names in file order, the profile's own after the file's.
    public private(set) var names: [String] = []

    public init() {}

    /// The names of `file`, then `profile`'s own over them.
    public init(file: SettingsFile?, profile: SettingsFile.Profile?) {
        guard let file else { return }
        for d in file.devices { add(Entry(name: d.name, value: d.value, file: file.path, line: d.line, profile: nil)) }
        for d in profile?.devices ?? [] {
            add(Entry(name: d.name, value: d.value, file: file.path, line: d.line, profile: profile?.name))
        }
    }

    private mutating func add(_ entry: Entry) {
        if entries[entry.name] == nil { names.append(entry.name) }
        entries[entry.name] = entry
    }

    /// The tokens (lowercase hex) `name` stands for anywhere in `file`, in `[devices]` or any profile's own,
    /// trimmed as `-d` values are: a reader that does not know which profile a send used (the history).
    public static func tokens(named name: String, in file: SettingsFile) -> [String] {
        let name = name.trimmingBlanks()
        return allEntries(in: file).compactMap { entry in
            entry.name == name ? (try? token(of: entry))?.hex : nil
        }
    }

    /// Every entry of every device table in `file`: `[devices]`, then each profile's own.
    public static func allEntries(in file: SettingsFile) -> [Entry] {
        file.devices.map { Entry(name: $0.name, value: $0.value, file: file.path, line: $0.line, profile: nil) }
            + file.profiles.flatMap { profile in
                profile.devices.map {
                    Entry(name: $0.name, value: $0.value, file: file.path, line: $0.line, profile: profile.name)
                }
            }
    }

    /// Every device name in `file`, `[devices]` first, each once: what a mistyped name is compared with.
    public static func allNames(in file: SettingsFile) -> [String] {
        var seen = Set<String>()
        return allEntries(in: file).map(\.name).filter { seen.insert($0).inserted }
    }

    /// Why `text` cannot be a device name, since `-d` reads it as a token (hex digits only, or a token in
    /// Xcode's grouped `<…>` form or another shape a token is read in); nil when it can be one.
    public static func tokenReading(_ text: String) -> String? {
        if isHexOnly(text) { return "is made only of hex digits" }
        return (try? DeviceToken(parsing: text)) != nil ? "reads as a device token" : nil
    }

    /// Whether `text` is made only of hex digits (and so must be a token).
    public static func isHexOnly(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
            }
    }

    /// Why a value is neither a token nor a known name: `label` names where it came from (`--device "x"`,
    /// `--devices FILE:3`).
    public enum Problem: Error, Sendable, Equatable {
        /// Not a token: the token's own problem (hex, length, base64…).
        case token(DeviceToken.Problem)
        /// Looks like a name, but no table has it. The closest known name is looked for only when the message is
        /// worded (a list of thousands of unknown names must not cost a search each).
        case unknownName(String, known: [String])
        /// A known name whose value is not a token: `PATH:LINE` and why.
        case badEntry(Entry, String)

        public var message: String { worded(naming: true) }

        /// The message for a `--devices` line, which is quoted (by its first 8 characters) before it: an unknown
        /// name is not repeated, since the line may be a secret given by mistake.
        public var lineMessage: String { worded(naming: false) }

        /// The closest known name to an unknown one, if any is close.
        public var suggestion: String? {
            guard case .unknownName(let name, let known) = self else { return nil }
            return Suggestion.closest(to: name, among: known)
        }

        private func worded(naming: Bool) -> String {
            switch self {
            case .token(let p): return p.message
            case .unknownName(let name, let known):
                let unknown = naming ? "unknown device name \(PrintableText.quoted(name))" : "unknown device name"
                if let near = suggestion { return "\(unknown); did you mean \(PrintableText.quoted(near))?" }
                if known.isEmpty {
                    return
                        "not a device token, and no device names are defined (add them under [devices] in the settings file)"
                }
                return "\(unknown); the known names are \(Self.listed(known))"
            case .badEntry(let e, let why):
                return "device name \(PrintableText.quoted(e.name)) (\(e.file):\(e.line)) is not a usable token: \(why)"
            }
        }

        /// The first known names and how many there are in all: a table of thousands is not printed whole.
        private static func listed(_ names: [String]) -> String {
            let shown = 10
            guard names.count > shown else { return names.joined(separator: ", ") }
            return names.prefix(shown).joined(separator: ", ")
                + ", … (\(names.count) in all; apnsctl config list shows them)"
        }
    }

    /// The token a table's entry gives its name, or `.badEntry` saying why its value is none: the one rule for a
    /// name sent to (`resolve`) and a name listed (`config list` warns about it).
    public static func token(of entry: Entry) throws(Problem) -> DeviceToken {
        guard case .string(let value) = entry.value else {
            throw .badEntry(entry, "expected a string, found \(entry.value.typeName)")
        }
        do { return try DeviceToken(parsing: value) } catch { throw .badEntry(entry, error.message) }
    }

    /// A token as given, or the token a known name stands for. Hex values are always tokens.
    public func resolve(_ text: String) throws(Problem) -> Device {
        // No names (no settings file): the token parser alone, at no extra cost to a plain send.
        if entries.isEmpty, let token = try? DeviceToken(parsing: text) { return Device(token: token, name: nil) }
        let trimmed = text.trimmingBlanks()
        if let entry = entries[trimmed] { return Device(token: try Self.token(of: entry), name: entry.name) }
        do { return Device(token: try DeviceToken(parsing: text), name: nil) } catch {
            // A value that could be a name (no hex-only text, no token shapes) gets the name's advice: with a blank
            // inside too, as iOS names devices ("Ada’s iPhone").
            switch error {
            case .notHex, .innerWhitespace:
                if Self.looksLikeName(trimmed) { throw .unknownName(trimmed, known: names) }
            default: break
            }
            throw .token(error)
        }
    }

    /// Letters, digits, `-`, `_`, `.`, apostrophes and blanks inside (`Ada’s iPhone`, as iOS names a device): a
    /// plausible name rather than a mangled token. With a blank, a letter no hex digit is must be there too, so
    /// a token pasted in groups (`3f2a 9c1d`) keeps its own advice.
    static func looksLikeName(_ text: String) -> Bool {
        let allowed: (Unicode.Scalar) -> Bool = {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.'’ ".unicodeScalars.contains($0)
        }
        let wordLetter: (Unicode.Scalar) -> Bool = {
            $0.properties.isAlphabetic && !("a"..."f").contains($0) && !("A"..."F").contains($0)
        }
        return !text.isEmpty && text.utf8.count <= 64 && !DeviceToken.isNearlyHex(text)
            && text.unicodeScalars.allSatisfy(allowed)
            && (!text.contains(" ") || text.unicodeScalars.contains(where: wordLetter))
    }
}
