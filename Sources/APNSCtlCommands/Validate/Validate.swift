import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl validate`: checks payload files against APNs size limits and `aps` rules, without sending,
    /// and prints problems like a compiler so editors and CI can jump to them.
    struct Validate: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check payload files against APNs size limits and aps rules, without sending.",
            usage: "apnsctl validate <payload> ... [--push-type <type>] [<options>]",
            discussion: """
                Each PAYLOAD is a .json file, a .apns file (Xcode's simulator format: its "Simulator \
                Target Bundle" key is not part of the payload, and the size is that of the rest written \
                compactly), or - for standard input.

                Problems go to standard output, one per line, in the first form below; a file without \
                problems prints the second. PATH is the key path (aps.alert.title, aps.badge; a missing key \
                is named by its own path, at the object that lacks it) or (root) for the whole payload, and \
                COLUMN counts UTF-8 bytes:
                  FILE:LINE:COLUMN: error|warning: PATH: message
                  FILE: ok (N bytes of LIMIT, PUSH_TYPE)

                Errors: not JSON, not an object, empty, over the size limit (with the minified size), aps \
                missing (a warning for voip, pushtotalk, complication, fileprovider and location, whose payload \
                is the app's own) or not an object, a known aps key with the wrong type or value, a background push \
                with alert, badge or sound, missing Live Activity or widget fields. Warnings: unknown aps \
                keys (with "did you mean"), duplicate keys (the first 20, then a count), empty alert or sound, content-available 0, \
                critical 0, keys Apple ignores.

                The push type, unless given, is the one a .apns file's "Simulator Target Bundle" names by its \
                suffix (com.example.app.voip: voip), else mdm when there is no aps but a top-level mdm key, \
                liveactivity when aps has event, background when aps holds only "content-available": 1, \
                widgets (with a warning: it could be controls) when aps holds only "content-changed": true, \
                else alert. Live Activity payloads also get warnings for content-state numbers that look like \
                UNIX times (a Swift Date wants seconds since 2001) and for a timestamp in milliseconds. Every file is checked even when one is missing. Exit status: 0 when no file \
                has an error, 65 when one has, 66 when a file could not be read, 64 for a bad option value.

                Examples:
                  apnsctl validate Payloads/alert.json Payloads/badge.json Payloads/demo.apns
                  apnsctl validate --push-type voip Payloads/voip.json
                  apnsctl validate --size-limit 256 --strict legacy.json
                  echo '{"aps":{"badge":"5"}}' | apnsctl validate -
                  apnsctl validate -o json Payloads/alert.json
                """)

        @Argument(
            help: ArgumentHelp("Payload files (.json or .apns); - reads standard input.", valueName: "payload"),
            completion: .file())
        var payloads: [String]

        @Option(
            name: .customLong("push-type"),
            help: ArgumentHelp(
                "Judge every payload as this push type: \(PushType.allNames). Default: inferred per file.",
                valueName: "type"), completion: .list(PushType.allCases.map(\.rawValue)))
        var pushType: String?

        @Option(
            name: .customLong("size-limit"),
            help: ArgumentHelp(
                "Byte limit: a number, or 256, 2k, 4k, 5k. Default 4096, 5120 for voip.", valueName: "n"),
            completion: .list(["256", "2k", "4k", "5k"]))
        var sizeLimit: String?

        @Flag(name: .customLong("strict"), help: "Treat warnings as errors (they print as errors and fail the run).")
        var strict = false

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp(
                "Output format: text (compiler-style lines) or json (one JSON object per file).",
                valueName: "text|json"), completion: OutputFormat.completion, transform: OutputFormat.argument)
        var output: OutputFormat = .text

        /// Checks every file (a missing one does not stop the others), prints, and picks the exit status.
        func run(in world: CommandWorld) throws {
            // `-` and `/dev/stdin` alike: the second read found the first had taken everything (an empty payload).
            let readers = payloads.filter(FileSystem.namesStandardInput)
            if readers.count > 1 {
                let named =
                    Set(readers).count == 1
                    ? "\(readers[0]) (standard input) can be given only once"
                    : "\(readers.joined(separator: " and ")) all read standard input"
                throw CLIError.usage(named + "; save the other payloads to files")
            }
            var options = try validationOptions()
            warnAboutSendsVariables(in: world)
            // A Live Activity's timestamp is judged against this moment (CLI.md: more than an hour either way warns).
            options.now = world.clock.now()
            let format = output
            let renderer = ValidateOutput(format: format, in: world)
            var unreadable = 0
            var invalid = 0
            for path in payloads {
                let payload: Payload
                do {
                    if FileSystem.namesStandardInput(path) {
                        world.sayWhenReadingTheTerminal("validate", "the payload", "type or paste the JSON")
                    }
                    payload = try Payload.load(path: path, standardInput: world.standardInput)
                } catch {
                    // A file over the read limit is there and read: over every push type's size limit (65).
                    if error.isOverReadLimit { invalid += 1 } else { unreadable += 1 }
                    renderer.fileError(error, path: path)
                    continue
                }
                // A `.apns` file's bundle is the topic `send` sends it to: its suffix picks the push type there. (A
                // bare bundle id gets a type's suffix or not by the certificate's topics, which validate has not.)
                var fileOptions = options
                if let bundle = payload.simulatorTargetBundle, PushType.inferred(fromTopic: bundle) != nil {
                    fileOptions.topic = bundle
                    fileOptions.settingNames.topic = "\"\(Payload.simulatorTargetBundleKey)\""
                }
                let report = PayloadValidator.validate(payload, options: fileOptions)
                if report.hasErrors { invalid += 1 }
                renderer.report(report, file: path)
            }
            renderer.finish()
            if unreadable > 0 {
                throw CLIError.inputMissing(
                    "\(unreadable) of \(payloads.count) payload file\(payloads.count == 1 ? "" : "s") could not be read\(payloads.count > unreadable ? "; the others were checked" : "")"
                )
            }
            if invalid > 0 { throw CLIError.payloadInvalid(nil) }
        }

        /// `APNSCTL_PUSH_TYPE` and `APNSCTL_SIZE_LIMIT` are send's settings, which validate does not read (CLI.md):
        /// set in a CI job, they would let validate pass a payload that send then judges as another push type. Said
        /// once, with the flag that checks it as send will.
        func warnAboutSendsVariables(in world: CommandWorld) {
            let unread = [
                ("APNSCTL_PUSH_TYPE", "--push-type", pushType), ("APNSCTL_SIZE_LIMIT", "--size-limit", sizeLimit),
            ]
            .compactMap { variable, flag, given in
                given == nil ? world.setting(variable).map { (variable, flag, $0.trimmingBlanks()) } : nil
            }
            // A value that may be a pasted secret is never repeated; printable text is quoted as a shell word.
            .map { variable, flag, value in
                (variable, flag, VariableEcho.mayEcho(value) ? PrintableText.escapingControls(value) : "VALUE")
            }
            guard !unread.isEmpty else { return }
            let set = unread.map { "\($0.0)=\(ShellWord.of($0.2))" }.joined(separator: " and ")
            let flags = unread.map { "\($0.1) \(ShellWord.of($0.2))" }.joined(separator: " ")
            world.standardError.warning(
                "\(set) \(unread.count == 1 ? "is a setting" : "are settings") of send, which validate does not read; "
                    + "to judge the payloads as send will, give \(flags)")
        }

        /// Turns the flags into validator options; a bad value is a usage error (exit 64). `--push-type` and
        /// `--size-limit` are read as send reads them (the settings parser), so both say the same of a bad value.
        func validationOptions() throws(CLIError) -> ValidationOptions {
            var options = ValidationOptions(strict: strict, settingNames: .apnsctl)
            do {
                if let pushType {
                    options.pushType = try SettingParser.parseFlag(pushType, for: .pushType, command: .send)
                }
                if let sizeLimit {
                    options.sizeLimit = try SettingParser.parseFlag(sizeLimit, for: .sizeLimit, command: .send)
                }
            } catch {
                throw CLIError(error)
            }
            return options
        }

    }
}
