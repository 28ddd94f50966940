import APNSCore
import APNSMock
import APNSPlatform
import APNSSettings

/// One edit of the settings file by `config set`, `unset`, `add-device` or `remove-device`: the file read as
/// every command reads it (refused if others can change it), edited in place by `SettingsEditor`, and written
/// back through a temporary file and rename, mode 0600 (a new file in a 0700 folder). One its owner made read-only
/// is left alone.
struct SettingsFileEdit {
    let location: SettingsLocation
    var editor: SettingsEditor
    /// Whether the file existed before.
    let existed: Bool
    let world: CommandWorld
    /// Whether the file may be one that does not load (a repair, `config unset` and `remove-device`).
    let repairing: Bool
    /// Held from the read to the write: edits run in turn, and none is lost to another's rename (nil for a file
    /// whose folder is made by this edit).
    private let lock: DirectoryLock?

    /// `repairing`: the file need only be TOML, not load as settings (`config unset` removes the line at fault).
    init(options: ConfigFileOptions, world: CommandWorld, repairing: Bool = false) throws(CLIError) {
        let found = try options.writableLocation(in: world)
        location = found
        self.world = world
        self.repairing = repairing
        switch DirectoryLock.acquire(found.directory, seconds: Self.lockSeconds) {
        case .acquired(let held): lock = held
        case .unavailable: lock = nil
        case .held(let directory):
            throw .outputExists(
                "\(found.path): another edit of the settings in \(directory) has gone on for more than "
                    + "\(Self.lockSeconds) s (an apnsctl config stopped with Ctrl-Z?); nothing was changed: let it "
                    + "finish, and run this again")
        }
        var read: [UInt8]? = nil
        do {
            // A named file that does not exist yet is created, as the default one is; one to mend must exist.
            let bytes = try SettingsFileReader.read(
                repairing ? found : SettingsLocation(path: found.path, origin: .defaultValue))
            read = bytes
            existed = bytes != nil
            editor =
                repairing
                ? try SettingsEditor.forRepair(path: found.path, bytes: bytes ?? [])
                : try SettingsEditor(path: found.path, bytes: bytes ?? [])
        } catch { throw CLIError(error.withMendingCommand(for: found, bytes: read)) }
    }

    /// How long an edit waits for another to finish; an edit takes milliseconds.
    static let lockSeconds = 10

    /// The file as it reads now; a problem one line's removal mends names the command that removes it.
    var file: SettingsFile {
        get throws(CLIError) {
            do { return try editor.file } catch {
                throw CLIError(error.withMendingCommand(for: location, bytes: editor.bytes))
            }
        }
    }

    /// The profile an edit without `--profile` goes to: the one `APNSCTL_PROFILE` names, which every other command
    /// without `-p` uses (an edit elsewhere would change a profile they never read), else the file's
    /// `default-profile`.
    func profile(_ flag: String?, for what: String) throws(CLIError) -> String {
        if let flag {
            guard !flag.isEmpty else { throw .usage("--profile: empty name; give the profile's name") }
            // A new name only: one the file already has is edited as it is spelt.
            if SettingsName.hasControl(flag), editor.profileNames?.contains(flag) != true {
                let word = SettingsName.suggestion(for: flag)
                throw .usage(
                    "profile name \(PrintableText.quoted(flag)) has a control character, as a stray line break from a script leaves"
                        + (word.isEmpty ? "" : "; name it \(ShellWord.of(word))"))
            }
            return flag
        }
        if let chosen = world.settings.profileVariable {
            // Only a profile the file has: a variable's typo, or a built-in's name (whose table would replace
            // the mock's credentials), is no profile to make without being asked by name.
            if let names = editor.profileNames, !names.contains(chosen) {
                let near =
                    Suggestion.closest(to: chosen, among: names).map { "did you mean \(PrintableText.quoted($0))? " }
                    ?? ""
                let builtIn =
                    MockProfile.names.contains(chosen)
                    ? " (the built-in profile of apnsctl mock, which a table of that name would replace)" : ""
                throw .usage(
                    "APNSCTL_PROFILE=\(chosen.escapingControlsForOutput()) chooses the profile to edit, and "
                        + "\(location.path) \(existed ? "has none of that name" : "does not exist yet")\(builtIn); "
                        + "\(near)to make it, give --profile "
                        + "\(ShellWord.of(chosen)); to edit another, give its --profile")
            }
            return chosen
        }
        let file: SettingsFile
        do { file = try self.file } catch {
            // A file being mended may not load: its default-profile is read from the TOML as written.
            if repairing, let name = editor.defaultProfileName { return name }
            throw error
        }
        guard let d = file.defaultProfile else {
            let names = file.profiles.map(\.name)
            let state = FileSystem.exists(location.path) ? "has no default-profile" : "does not exist yet"
            throw .usage(
                "\(what): which profile? pass --profile NAME (\(location.path) \(state)"
                    + (names.isEmpty ? ")" : "; its profiles: \(names.joined(separator: ", ")))"))
        }
        // A default-profile naming a profile the file lacks (the built-in `mock`, or one removed since) is no
        // profile to make without being asked by name, as for APNSCTL_PROFILE: a table of the built-in's name
        // would replace the mock's credentials.
        if file.profile(d.name) == nil {
            let builtIn =
                MockProfile.names.contains(d.name)
                ? " (the built-in profile of apnsctl mock, which a table of that name would replace)" : ""
            throw .usage(
                "\(what): \(location.path)'s default-profile \(PrintableText.quoted(d.name)) chooses the profile to "
                    + "edit, and the file has none of that name\(builtIn); to make it, give --profile "
                    + "\(ShellWord.of(d.name)); to edit another, give its --profile")
        }
        return d.name
    }

    /// For an edit that adds to `--profile NAME` (`config set`): a profile the file lacks is made, as asked, but
    /// one that is an existing profile's name with a typo in it is said at once (nothing else would say it).
    func warnIfNewProfileIsNear(_ name: String, in world: CommandWorld) {
        guard let file = try? self.file, file.profile(name) == nil,
            let near = file.profiles.map(\.name).first(where: { Self.isTypo(name, of: $0) })
        else { return }
        world.standardError.warning(
            "profile \(name.escapingControlsForOutput()) is new in \(location.path); did you mean \(PrintableText.quoted(near))? (written as asked)"
        )
    }

    /// Whether `typed` is `name` with one letter changed, two neighbours swapped, or one letter dropped or added
    /// inside it (`locla`, `prod-crt`); not a name made from another by a suffix (`dev2` beside `dev`,
    /// `staging-eu` beside `staging-us` differ in more than a slip).
    static func isTypo(_ typed: String, of name: String) -> Bool {
        let a = Array(typed)
        let b = Array(name)
        if a.count == b.count {
            let differing = a.indices.filter { a[$0] != b[$0] }
            if differing.count == 1 { return true }
            guard differing.count == 2, let i = differing.first else { return false }
            return differing[1] == i + 1 && a[i] == b[i + 1] && a[i + 1] == b[i]
        }
        guard abs(a.count - b.count) == 1 else { return false }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        guard let i = long.indices.first(where: { $0 >= short.count || long[$0] != short[$0] }) else { return false }
        // One more or one less character at the end is another name (`dev2`, `prod` beside `prod2`).
        guard i < long.count - 1 else { return false }
        var removed = long
        removed.remove(at: i)
        return removed == short
    }

    /// For an edit that removes (`unset`, `remove-device`): `--profile NAME` must name a profile of the file, or a
    /// typo would read as "nothing changed". A file being mended that does not load is not asked.
    func requireProfile(_ name: String?) throws(CLIError) {
        guard let name, let file = try? self.file, file.profile(name) == nil else { return }
        let names = file.profiles.map(\.name)
        let near = Suggestion.closest(to: name, among: names).map { "did you mean \(PrintableText.quoted($0))? " } ?? ""
        throw .usage(
            "--profile \(PrintableText.quoted(name)): \(location.path) has no such profile; \(near)"
                + (names.isEmpty ? "it has none" : "its profiles: \(names.joined(separator: ", "))"))
    }

    /// Said once a profile named as a built-in one (`mock`, `mock-token`) is first written to a file (`before` had
    /// none): from then on it replaces the built-in, and `-p mock` reads only what the file gives it.
    static func warnIfReplacingBuiltIn(_ profile: String?, before: SettingsFile?, path: String, in world: CommandWorld)
    {
        guard let profile, MockProfile.names.contains(profile), before?.profile(profile) == nil else { return }
        world.standardError.warning(
            "[profiles.\(profile)] in \(path) now replaces the built-in \(profile) profile (apnsctl mock's "
                + "credentials): -p \(profile) reads only what this file gives it; to keep the built-in, "
                + "remove the table and use another profile name")
    }

    /// Where relative and `~/` paths of the file are anchored.
    var paths: SettingParser.Paths {
        world.settings.paths(baseDirectory: location.directory)
    }

    /// Writes the edited file and prints `done` on stdout. A settings file kept as a link (dotfiles managers
    /// make one) is edited where it leads, as it is read there; the link stays. Where it leads is checked again
    /// as a load checks a settings file (owner, folders, no one else's link) just before it is written.
    func write(_ done: String) throws(CLIError) {
        var path = location.path
        if let destination = FileSystem.linkDestination(location.path) {
            do { _ = try SettingsFileReader.read(SettingsLocation(path: destination, origin: .defaultValue)) } catch {
                throw CLIError(error)
            }
            path = destination
        }
        // A `chmod a-w` says "do not change this"; root could write it anyway, and the rename would drop the mode.
        if existed, let mode = FileSystem.permissions(of: path), mode & 0o200 == 0 {
            throw .outputExists(
                "\(path): read-only (mode 0\(String(mode, radix: 8))), so it was left as it is; to edit it with "
                    + "apnsctl config, make it writable first (chmod u+w \(ShellWord.of(path)))")
        }
        do {
            if !existed { try FileSystem.makeDirectories(location.directory, mode: 0o700) }
            try FileSystem.write(editor.bytes, to: path, mode: 0o600, overwrite: true)
        } catch {
            // A link that leads nowhere, a directory, a FIFO: no flag changes that, so none is advised.
            if case .notARegularFile(_, let what) = error {
                throw .outputExists(
                    what == "a symbolic link"
                        ? "\(location.path): a link whose file is missing; restore the file it names, or remove the link"
                        : error.message + "; apnsctl config edits a regular file, or a link to one")
            }
            throw CLIError(error)
        }
        try ConfigOutput.write([done.escapingControlsForOutput()], to: world.standardOutput, written: path)
    }
}

extension String {
    /// Controls escaped, so no name or value typed can drive the terminal.
    func escapingControlsForOutput() -> String { PrintableText.escapingControls(self) }
}
