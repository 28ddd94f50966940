import APNSCore
import APNSHistory
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.History {
    /// `apnsctl history [list]`: one line (or JSON object) per entry, newest first.
    struct List: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract:
                "One line per recorded send, newest first: number, local time, environment, topic, push type, outcome.",
            usage: "apnsctl history list [--device <token|name>] [--since <when>] [<options>]",
            discussion: """
                --device and --reason keep the entries with such a result; --since keeps those started since a \
                time (2h, 30m, 7d ago, a local date or time 2026-11-28 or 2026-11-28 18:02, or one with its \
                zone 2026-11-28T18:02:00Z or 2026-11-28T18:02:00+05:00). -o json prints one \
                object per entry.
                """)

        @Option(
            name: [.customShort("d"), .customLong("device")],
            help: ArgumentHelp(
                "Entries with a result for this device: a token (hex), the shortened token send prints (3f2a…9c1d), or a device name (as sent, or a name in the settings file for the token sent); a broadcast's channel id.",
                valueName: "token|name"))
        var device: String?

        @Option(
            name: .customLong("reason"),
            help: ArgumentHelp("Entries with a result of this APNs reason (any case).", valueName: "reason"))
        var reason: String?

        @Option(
            name: .customLong("since"),
            help: ArgumentHelp(
                "Entries started since this time: a duration ago (2h, 30m, 7d), a local date or time (2026-11-28, 2026-11-28 18:02) or one with its zone (2026-11-28T18:02:00Z, …+05:00).",
                valueName: "when"))
        var since: String?

        @Option(
            name: .customLong("limit"), help: ArgumentHelp("At most this many entries.", valueName: "n"),
            transform: List.limit)
        var limit: Int?

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("text (one line per entry) or json (one object per entry).", valueName: "text|json"),
            completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat = .text

        /// Where `--device NAME` finds the tokens a name stands for.
        @OptionGroup var settingsFile: ConfigFileOptions

        /// What is wrong with `--limit N`, nil when nothing is: a whole number from 1, in decimal. A number past
        /// the largest count is no problem (every entry is listed).
        static func limitProblem(_ text: String) -> String? {
            let shown = ShellWord.of(text.escapingControlsForOutput())
            if let limit = Int(text) { return limit < 1 ? "--limit \(shown): give a number from 1" : nil }
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
            return "--limit \(shown): give a whole number from 1, in decimal, such as 10"
        }

        /// The argument parser's `transform:` for `--limit`: refused with `limitProblem`'s words, not the
        /// parser's "invalid" line with the usage.
        @Sendable static func limit(_ text: String) throws -> Int {
            if let problem = limitProblem(text) { throw SettingsProblem(.usage, problem) }
            return Int(text) ?? .max
        }

        func run(in world: CommandWorld) throws {
            let format = output
            // An unset variable in `--reason "$REASON"` filters nothing in; said as the slip it is.
            for (flag, value) in [("--device", device), ("--reason", reason)] where value?.isEmpty == true {
                let what = flag == "--device" ? "a device token or name" : "an APNs reason, such as Unregistered"
                throw CLIError.usage("\(flag): empty value; give \(what), or leave \(flag) out")
            }
            // A settings file named on the command line must be there (CLI.md: 66), used or not.
            if settingsFile.config != nil { _ = try settingsFile.input(for: .send, world: world.settings) }
            let query = HistoryQuery(
                device: try device.map { try HistoryTime.deviceFilter($0, in: world) },
                namedTokens: device.map { HistoryTime.tokens(named: $0, settings: settingsFile, in: world) } ?? [],
                reason: reason, since: try since.map { try HistoryTime.parse($0, flag: "--since", in: world) },
                limit: limit)
            guard let store = try HistoryAccess.open(in: world) else {
                if let why = HistoryAccess.noFolder(in: world) {
                    world.standardError.warning(why)
                } else if format == .text {
                    world.standardError.print("no send is recorded in the history yet\n")
                }
                return
            }
            let entries: [HistoryEntry]
            do { entries = try store.entries(query) } catch { throw HistoryAccess.cliError(error) }
            for entry in entries {
                world.standardOutput.line(
                    format == .json ? HistoryOutput.listJSON(entry) : HistoryOutput.listLine(entry))
            }
            let filters = [
                device.map { "--device \($0.escapingControlsForOutput())" },
                reason.map { "--reason \($0.escapingControlsForOutput())" },
                since.map { "--since \($0.escapingControlsForOutput())" },
            ].compactMap { $0 }
            // An empty list says why, so a mistyped device or reason is not taken for "never sent": on stderr, so
            // with -o json too when a filter was given (a script's empty answer may be a typo).
            if entries.isEmpty && (format == .text || !filters.isEmpty) {
                // The device's own sends, when another filter was given too: found, the device was no typo.
                var deviceAlone = query
                (deviceAlone.reason, deviceAlone.since, deviceAlone.limit) = (nil, nil, 1)
                let deviceHasSends =
                    device != nil && (reason != nil || since != nil)
                    && (try? store.entries(deviceAlone))?.isEmpty == false
                let devices =
                    device == nil
                    ? ""
                    : deviceHasSends
                        ? " (the device has recorded sends, none that match the other filters)"
                        : " (a device is its whole token, the shortened form send prints, or a name: one it was given by, or one of the settings file's devices)"
                // A near miss of a device name or an APNs reason is named, as a mistyped flag is.
                let nearDevice =
                    deviceHasSends
                    ? nil
                    : device.flatMap {
                        HistoryTime.closestDeviceName(to: $0, settings: settingsFile, in: world)
                    }
                let nearReason = reason.flatMap { HistoryTime.closestReason(to: $0) }
                let guesses = [
                    nearDevice.map { "the device \(PrintableText.quoted($0))" },
                    nearReason.map { "the reason \($0)" },
                ].compactMap { $0 }
                var guess = guesses.isEmpty ? "" : "; did you mean \(guesses.joined(separator: " and "))?"
                // An outcome with no APNs reason (`unknown`, `failed`, `interrupted`): --reason matches only APNs'.
                // A --since later than now matches nothing however the history stands: said, with now.
                if let since = query.since, since > world.clock.now() {
                    guess += "; --since is later than now (\(LocalTime.format(epochSeconds: world.clock.now())))"
                }
                if let reason, nearReason == nil,
                    !APNSReason.allCases.contains(where: { $0.rawValue.lowercased() == reason.lowercased() })
                {
                    guess +=
                        "; --reason matches the reasons APNs gave (BadDeviceToken, Unregistered, …), and a device "
                        + "with no answer has none: apnsctl history lists each send's outcome, unknown ones included"
                }
                world.standardError.print(
                    filters.isEmpty
                        ? "no send is recorded in the history yet\n"
                        : "no recorded send matches \(filters.joined(separator: " "))\(guess)\(nearDevice == nil ? devices : "")\n"
                )
            }
            world.standardOutput.flush()
            if let failure = world.standardOutput.failure {
                throw CLIError.outputFailed(
                    HistoryOutput.notPrinted(failure, total: entries.count, what: "the list of entries"))
            }
        }
    }
}
