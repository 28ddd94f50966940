import APNSCore
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config unset`: removes one key of a profile (or `default-profile`) from the settings file.
    struct UnsetKey: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset",
            abstract: "Remove a profile key (or default-profile) from the settings file, keeping the rest.",
            usage: "apnsctl config unset [--profile <name>] <key>",
            discussion: """
                Removes KEY's line (its lines, for a value written over several) from the profile (without \
                --profile, the one APNSCTL_PROFILE names, else the file's default-profile), or default-profile (or a key that has no place there) from \
                the top level; every other line stays. \
                A key that is not set changes nothing (a warning, exit 0). A file every command refuses for a key \
                no setting has (a typo: topik) is mended this way too: unset removes that key's line.
                """)

        @OptionGroup var target: ConfigKeyOptions

        func run(in world: CommandWorld) throws {
            // A table of device names, not a key's line: removing its header would leave its names to the table
            // above it (and the reload blamed a line of another profile).
            if target.key == "devices" {
                let profile = target.profile.map { " --profile \(ShellWord.of($0))" } ?? ""
                throw CLIError.usage(
                    "devices is a table of device names, not a key; remove each name with apnsctl config "
                        + "remove-device NAME\(profile) (apnsctl config list shows them)")
            }
            var edit = try SettingsFileEdit(options: target.file, world: world, repairing: true)
            let table: [String]
            // An unknown key is refused unless the file has it: removing it is how a typo in the file is mended.
            var unknownKey: Error? = nil
            // The top level holds only default-profile and tables: any other key there is a slip, removed from
            // there when no profile is named.
            if target.key == "default-profile" || (target.profile == nil && edit.editor.topLevelHolds(target.key)) {
                table = []
            } else {
                do { _ = try ProfileKeyCheck.setting(target.key, value: nil) } catch { unknownKey = error }
                // A key no setting has and no profile holds is the problem to say, before asking which profile.
                if let unknownKey, edit.editor.profilesHolding(target.key).isEmpty { throw unknownKey }
                try edit.requireProfile(target.profile)
                table = ["profiles", try edit.profile(target.profile, for: "config unset \(target.key)")]
            }
            let place = table.isEmpty ? "the top level" : SettingsEditor.header(table)
            var removed: Bool
            do {
                removed = try edit.editor.remove(target.key, from: table)
                // The history's switch is unset whichever way the file spells it.
                if !removed, let other = SettingCatalog.otherHistorySpelling(target.key) {
                    removed = try edit.editor.remove(other, from: table)
                }
            } catch { throw CLIError(error) }
            if !removed, let unknownKey {
                // A typo being mended under the wrong profile: say where the file has it.
                if let other = edit.editor.profilesHolding(target.key).first {
                    let problem = SettingsProblem(
                        .usage,
                        "\(target.key) is not in \(place) of \(edit.location.path); the file has it in "
                            + SettingsEditor.header(["profiles", other]),
                        mend: .key(target.key, profile: other))
                    throw CLIError(problem.withMendingCommand(for: edit.location))
                }
                throw unknownKey
            }
            guard removed else {
                world.standardError.warning(
                    "\(target.key) is not set in \(place) of \(edit.location.path); nothing changed")
                return
            }
            try edit.write("removed \(target.key) from \(place), \(edit.location.path)")
            // An emptied table of a built-in profile's name still replaces the built-in: -p mock would have nothing.
            if table.count == 2, let name = table.last, MockProfile.names.contains(name),
                let left = (try? edit.file)?.profile(name), left.values.isEmpty, left.devices.isEmpty
            {
                world.standardError.warning(
                    "[profiles.\(name)] in \(edit.location.path) is empty now, and still replaces the built-in \(name) "
                        + "profile (apnsctl mock's credentials): delete its header line to use the built-in again")
            }
            // Mended one line of a file that did not load: say what still stops it, if anything.
            do { _ = try edit.file } catch {
                world.standardError.warning("the file still does not load: \(error.message ?? "")")
            }
        }
    }
}
