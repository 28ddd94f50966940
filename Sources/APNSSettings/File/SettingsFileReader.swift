import APNSPlatform

/// Reads the settings file at the edge: the one function that touches the file system, so it can move to a
/// no-follow open in `APNSPlatform` (the `PrivateDirectory` work) without the rest changing. The file's
/// owner and mode are checked on the opened descriptor (no race with a rename between check and read):
/// as ssh does with its config, a file others can write, or owned by neither the user nor root, is refused.
public enum SettingsFileReader {
    /// The file's bytes; nil when it does not exist and was not named explicitly (no settings file).
    public static func read(_ location: SettingsLocation, userID: UInt32 = Environment.userID) throws(SettingsProblem) -> [UInt8]? {
        if location.isNone { return nil }
        let path = location.path
        let file: RegularFile
        do { file = try RegularFile(path: path) } catch {
            switch error {
            case .missing:
                if !location.isExplicit { return nil }
                throw .missing("\(location.label): no such settings file; check the path, or leave out \(Self.source(location)) to use the default")
            case .cannotOpen(let reason, let unseen):
                // The default location behind a folder this user cannot search (another user's HOME, as under
                // setpriv or sudo -u): whether a file is there cannot be known, so there is none for this user. A
                // file that is seen but unreadable is still an error.
                if unseen && !location.isExplicit { return nil }
                throw .missing("\(location.label): cannot read the settings file: \(reason)")
            case .cannotInspect(let reason):
                throw .missing("\(location.label): cannot read the settings file: \(reason)")
            case .notRegular(let isDirectory):
                // Never read from a FIFO or a device (it could block or never end): unreadable, as a missing file.
                throw .missing("\(location.label): \(isDirectory ? "is a directory" : "not a regular file"); the settings file is a TOML text file")
            }
        }
        if let refusal = permissionProblem(path: path, mode: file.mode, owner: file.owner, userID: userID) {
            throw .usage(refusal)
        }
        let bytes = file.read(limit: maximumSize + 1)
        guard bytes.count <= maximumSize else {
            throw .usage("\(path): more than \(maximumSize >> 20) MiB; a settings file is a few lines of TOML")
        }
        return bytes
    }

    /// Far beyond any settings file.
    static let maximumSize = 1 << 20

    /// ssh's rule, pure so it is tested with every mode: writable by group or others, or owned by someone other
    /// than the user and root, is refused with what to run.
    public static func permissionProblem(path: String, mode: UInt32, owner: UInt32, userID: UInt32) -> String? {
        if owner != userID && owner != 0 {
            return "\(path): owned by uid \(owner), not by you (uid \(userID)) or root; apnsctl reads only its own settings file, as ssh does (chown it, or copy it)"
        }
        if mode & 0o022 != 0 {
            let octal = String(mode & 0o7777, radix: 8)
            return "\(path): writable by \(mode & 0o020 != 0 ? "group" : "others")\(mode & 0o022 == 0o022 ? " and others" : "") (mode 0\(octal)); apnsctl refuses a settings file other users can change, as ssh does: chmod go-w \(path)"
        }
        return nil
    }

    private static func source(_ location: SettingsLocation) -> String {
        if case .flag(let f) = location.origin { return f }
        if case .variable(let v) = location.origin { return v }
        return "it"
    }
}
