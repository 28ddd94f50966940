import APNSCore
import APNSMock
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config list`: the profiles (default marked) and device names of the settings file.
    struct List: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the profiles (the default marked) and device names.",
            discussion: """
                One line per profile, with the file and line that define it, the built-in mock profile \
                included (unless the file defines its own), then one line per device name with its token. \
                -o json prints one object per line: {"profile":…,"default":…,"file":…,"line":…} and \
                {"device":…,"token":…,"profile":…,"file":…,"line":…}. A file with a syntax error, an unknown \
                key or a passphrase is refused (exit 64), as every command refuses it.
                """)

        @OptionGroup var file: ConfigFileOptions

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Format: text or json (one JSON object per line).", valueName: "text|json"),
            completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat = .text

        /// How many unusable device names are warned about one by one.
        static let warnedEntries = 20

        func run(in world: CommandWorld) throws {
            let format = output
            let input = try file.input(for: .send, world: world.settings)
            let parsed: SettingsFile?
            do { parsed = try input.parsedFile() } catch { throw CLIError(error) }
            if let parsed, let d = parsed.defaultProfile, parsed.profile(d.name) == nil,
                !MockProfile.names.contains(d.name)
            {
                // Every command choosing no profile would fail on it: said here, where the user looks first.
                let names = parsed.profiles.map(\.name) + MockProfile.names
                let near =
                    Suggestion.closest(to: d.name, among: names).map { "did you mean \(PrintableText.quoted($0))? " }
                    ?? ""
                world.standardError.warning(
                    "\(parsed.path):\(d.line): default-profile = \(PrintableText.quoted(d.name)) names no profile, so every command without -p fails; \(near)fix it with \(input.location.configCommand("set")) default-profile NAME"
                )
            }
            // The profile APNSCTL_PROFILE chooses is the one every command without -p uses: said beside the file's
            // default mark, and a name of no profile said as every command would refuse it.
            if let chosen = world.settings.profileVariable {
                let names = (parsed?.profiles.map(\.name) ?? []) + MockProfile.names
                if names.contains(chosen) {
                    if let marked = parsed?.defaultProfile?.name, marked != chosen {
                        world.standardError.warning(
                            "APNSCTL_PROFILE=\(ShellWord.of(chosen)) chooses profile \(chosen) for every command without "
                                + "-p, not the file's default-profile \(marked) marked below")
                    }
                } else {
                    let near =
                        Suggestion.closest(to: chosen, among: names).map {
                            "did you mean \(PrintableText.quoted($0))? "
                        }
                        ?? ""
                    world.standardError.warning(
                        "APNSCTL_PROFILE=\(ShellWord.of(chosen)) names no profile, so every command without -p fails; \(near)"
                            + "the profiles are \(names.joined(separator: ", "))")
                }
            }
            // A name `send -d` would refuse is said here too, with the commands that mend it: the first
            // `warnedEntries` of them (each is tried in an edit of the whole file, and the list above names them all).
            var unusable = 0
            for entry in parsed.map(DeviceNames.allEntries(in:)) ?? [] {
                do { _ = try DeviceNames.token(of: entry) } catch {
                    guard case .badEntry(_, let why) = error else { continue }
                    unusable += 1
                    guard unusable <= Self.warnedEntries else { continue }
                    // The commands name the file that was read (`--config FILE`) and the profile, to paste as given.
                    let profile =
                        (input.location.configFlagWords + (entry.profile.map { ["--profile", ShellWord.of($0)] } ?? []))
                        .map { $0 + " " }.joined()
                    let name = ShellWord.of(entry.name)
                    // Only commands that would work: an entry the editor cannot take out in place (an inline table)
                    // is mended by hand.
                    let removable =
                        input.fileBytes.map {
                            SettingsProblem.removes(
                                .device(entry.name, profile: entry.profile), from: $0, path: input.location.path)
                        } ?? false
                    let mending =
                        removable
                        ? "apnsctl config add-device \(profile)\(name) TOKEN replaces it, apnsctl config remove-device "
                            + "\(profile)\(name) removes it"
                        : "apnsctl config cannot change it in place; edit line \(entry.line) by hand"
                    world.standardError.warning(
                        "\(entry.file):\(entry.line): device \(PrintableText.quoted(entry.name)) is not a usable token: \(why); "
                            + "send -d \(name) fails until it is mended: \(mending)")
                }
            }
            if unusable > Self.warnedEntries {
                world.standardError.warning(
                    "and \(unusable - Self.warnedEntries) more device names that are not usable tokens (each listed "
                        + "with its line)")
            }
            if parsed == nil {
                let missing =
                    input.location.isNone
                    ? ": no home directory for the default one (\(world.settings.noHomeReason(xdg: "XDG_CONFIG_HOME")))"
                    : " at \(input.location.path)"
                world.standardError.warning(
                    "no settings file\(missing); only the built-in mock profiles exist (mock, mock-token)")
            }
            try ConfigOutput.write(
                format == .json
                    ? SettingsReport.listJSON(parsed, mockReadyFile: input.mockReadyFile)
                    : SettingsReport.listText(parsed, mockReadyFile: input.mockReadyFile),
                to: world.standardOutput)
        }
    }
}
