import APNSPlatform

/// Reads the settings file at the edge: the one function that touches the file system for it. The file names
/// endpoints and credentials, so it is read through `TrustedFile` (as ssh reads its config, and stricter): a
/// file, a link or a folder another user could change, a FIFO, or anything in /proc, /sys or /dev is refused
/// (exit 64) saying whose it is and why.
public enum SettingsFileReader {
    /// The file's bytes; nil when it does not exist and was not named explicitly (no settings file).
    public static func read(_ location: SettingsLocation) throws(SettingsProblem) -> [UInt8]? {
        if location.isNone { return nil }
        do { return try TrustedFile.read(location.path, limit: maximumSize) } catch {
            switch error {
            case .missing:
                if !location.isExplicit { return nil }
                throw .missing(
                    "\(location.label): no such settings file; check the path, or leave out \(Self.source(location)) to use the default"
                        + FileSystem.missingPathHint(location.path))
            case .unseen(_, let reason):
                // The default location behind a folder this user cannot search (another user's HOME, as under
                // setpriv or sudo -u): whether a file is there cannot be known, so there is none for this user.
                if !location.isExplicit { return nil }
                throw .missing("\(location.label): cannot read the settings file: \(reason)")
            case .unreadable(_, let reason):
                throw .missing("\(location.label): cannot read the settings file: \(reason)")
            case .tooLarge(let path, _):
                throw .usage("\(path): more than \(maximumSize >> 20) MiB; a settings file is a few lines of TOML")
            case .notAFile(let path, let reason):
                // Nothing about trust: the path names a folder (or a FIFO, a device), not the file.
                let example =
                    FileSystem.isDirectory(path)
                    ? ", such as \(path.hasSuffix("/") ? path : path + "/")config.toml" : ""
                throw .usage(
                    "\(path): \(reason); "
                        + (location.isExplicit
                            ? "\(Self.source(location)) names the settings file itself\(example)"
                            : "apnsctl reads its settings file there; move that aside"))
            case .untrusted(let path, let reason, let fix):
                throw .usage(
                    "\(path): \(reason); apnsctl reads only a settings file no one else can change, as ssh does"
                        + (fix.map { ": \($0)" } ?? ""))
            }
        }
    }

    /// Far beyond any settings file.
    static let maximumSize = 1 << 20

    private static func source(_ location: SettingsLocation) -> String {
        if case .flag(let f) = location.origin { return f }
        if case .variable(let v) = location.origin { return v }
        return "it"
    }
}
