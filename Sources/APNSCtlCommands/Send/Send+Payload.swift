import APNSCore
import APNSPlatform
import APNSSettings

/// The payload `send` sends: PAYLOAD as read, or built or brought up to date by the payload flags
/// (`PayloadBuilder`), with `@FILE`/`@-` values read here, at the edge.
extension APNSCtl.Send {
    /// The Live Activity flag `--live-activity`, checked.
    func parsedLiveActivityEvent() throws(CLIError) -> LiveActivityEvent? {
        guard let text = liveActivity.event else { return nil }
        guard let event = LiveActivityEvent(rawValue: text.lowercased()) else {
            let names = LiveActivityEvent.allCases.map(\.rawValue)
            throw .usage(
                "--live-activity \(PrintableText.quoted(text)): must be start, update or end\(Suggestion.closest(to: text.lowercased(), among: names).map { "; did you mean \($0)?" } ?? "")"
            )
        }
        return event
    }

    /// The payload flags that hold plain values (the event and the JSON ones, which may read a file, left out):
    /// enough for a replay to see whether the flags build a payload anew.
    var plainPayloadFlags: PayloadFlags {
        var f = PayloadFlags()
        f.attributesType = liveActivity.attributesType
        f.title = request.title
        f.alert = request.alert
        f.sound = request.sound
        f.badge = request.badge
        f.subtitle = request.subtitle
        f.category = request.category
        f.threadID = request.threadID
        f.mutableContent = request.mutableContent
        f.contentAvailable = request.contentAvailable
        f.staleDate = liveActivity.staleDate
        f.dismissalDate = liveActivity.dismissalDate
        f.relevanceScore = liveActivity.relevanceScore
        f.inputPushToken = liveActivity.inputPushToken
        f.inputPushChannel = liveActivity.inputPushChannel
        f.timestamp = liveActivity.timestamp
        f.contentChanged = liveActivity.contentChanged
        return f
    }

    /// The payload flags as `PayloadBuilder` takes them; `@FILE` and `@-` values are read (66 for a missing file;
    /// 64 when two inputs would read standard input).
    func payloadFlags(in world: CommandWorld, stdinReaders readers: [String] = []) throws(CLIError) -> PayloadFlags {
        var stdinReaders = readers
        func json(_ text: String?, field: PayloadField) throws(CLIError) -> FlagJSON? {
            guard let text else { return nil }
            let flag = field.flag
            guard text.hasPrefix("@") else {
                // Shell completion offers file names here: a file's name is the usual slip for @FILE. A JSON object
                // starts with {, so a value that does not and names a file is read as the name it is.
                if !text.trimmingBlanks().hasPrefix("{"), FileSystem.isRegularFile(text) {
                    throw .usage(
                        "\(flag) \(ShellWord.of(text)): a file's name, not JSON; write \(flag) \(ShellWord.of("@" + text)) to read the file"
                    )
                }
                return FlagJSON(field: field, bytes: Array(text.utf8))
            }
            let path = String(text.dropFirst())
            guard !path.isEmpty else {
                throw .usage("\(flag) @: no file after @; write \(flag) @FILE, or \(flag) @- for standard input")
            }
            if FileSystem.namesStandardInput(path) {
                stdinReaders.append("\(flag) @\(path)")
                try StandardInputReaders.check(stdinReaders)
            }
            var interrupts: (any InterruptSource)?
            do {
                return FlagJSON(
                    field: field, file: path,
                    bytes: try FileSystem.read(path, standardInput: world.standardInput) {
                        if FileSystem.namesStandardInput(path) {
                            world.sayWhenReadingTheTerminal("send", "\(flag) @\(path)", "type or paste the JSON")
                        }
                        interrupts = world.interrupts()
                        return interrupts?.fd
                    })
            } catch .interrupted {
                throw Self.interrupted(interrupts, reading: "\(flag) @\(path)")
            } catch {
                throw .inputMissing("\(flag) @\(path): \(error.message)")
            }
        }
        // `--alert @msg.txt`, as the JSON flags take a file: sent as written, but said, since a file of that name is
        // there.
        let texts = [
            ("--alert", request.alert), ("--title", request.title), ("--subtitle", request.subtitle),
            ("--attributes-type", liveActivity.attributesType),
        ]
        for case (let flag, let value?) in texts where value.hasPrefix("@") && value.count > 1 {
            let file = String(value.dropFirst())
            // `@-` as the JSON flags read standard input (and `@/dev/stdin`, a FIFO): the pipe's text was never read.
            if FileSystem.namesStandardInput(file) {
                world.standardError.warning(
                    "\(flag) \(ShellWord.of(value)): sent as that text; \(flag) reads nothing from standard input "
                        + "(the JSON flags' @- does), so to send the text a pipe gives, write \(flag) \"$(cat)\"")
                continue
            }
            // A FIFO or `<(…)` is a file too: its text is sent by `"$(cat FILE)"`, not by a bare `"$(cat)"`.
            guard FileSystem.isRegularFile(file) || FileSystem.isFIFO(file) || file.hasPrefix("/dev/fd/") else {
                continue
            }
            // A payload file (`--alert @alert.json`) is send's argument, never an alert's text; the attributes' JSON
            // beside the type's name goes in --attributes, which reads @FILE.
            let isJSON = file.lowercased().hasSuffix(".json") || file.lowercased().hasSuffix(".apns")
            let instead =
                if isJSON && flag == "--attributes-type" {
                    "send the attributes in \(file), give them as --attributes \(ShellWord.of(value)) (and the type's "
                        + "name, as ActivityAttributes calls it, in --attributes-type)"
                } else if isJSON {
                    "send the payload in \(file), give it as send's argument without \(flag) "
                        + "(apnsctl send \(ShellWord.of(file)) -d TOKEN)"
                } else {
                    "send the text in \(file), write \(flag) \"$(cat \(ShellWord.of(file)))\""
                }
            world.standardError.warning(
                "\(flag) \(ShellWord.of(value)): sent as that text; \(flag) reads no @FILE (the JSON flags do), so to "
                    + instead)
        }
        // `--sound '{"critical":1,…}'`, `--alert '{"title":…}'`: a dictionary typed where text goes is sent as text (a
        // phone showing raw JSON, a sound file of that name): sent as written, and said.
        for case (let flag, let value?) in texts + [("--sound", request.sound)]
        where value.first == "{" && value.last == "}" && value.contains("\":") {
            let dictionary =
                flag == "--sound"
                ? "a critical alert's sound dictionary" : "an alert dictionary (title, body, loc-key, …)"
            world.standardError.warning(
                "\(flag) '{…}': sent as text, not JSON (\(flag) takes text); for \(dictionary), write the payload as a file or inline JSON: apnsctl send '{\"aps\":{…}}'"
            )
        }
        var f = plainPayloadFlags
        f.liveActivity = try parsedLiveActivityEvent()
        f.contentState = try json(liveActivity.contentState, field: .contentState)
        f.attributes = try json(liveActivity.attributes, field: .attributes)
        // A payload key, not a header: only a secret is refused here; the validator words any other bad id (65).
        if let channel = f.inputPushChannel { try HeaderValueCheck.refuseSecret(channel, flag: "--input-push-channel") }
        return f
    }

    /// PAYLOAD as read (66 when unreadable) and the name its problems are reported under; nil without one.
    /// `deviceNames`: the settings' names, one of which as PAYLOAD is a `-d` forgotten or doubled.
    func readPayload(deviceNames: DeviceNames = DeviceNames(), in world: CommandWorld) throws(CLIError)
        -> SendPayload?
    {
        if let bytes = history.replayed.payload {
            return SendPayload(payload: Payload(bytes: bytes), name: "(history)")
        }
        guard let payload else { return nil }
        if payload.hasPrefix("{") { return SendPayload(payload: Payload(bytes: Array(payload.utf8)), name: "(inline)") }
        // A paste's blanks or line breaks (CRLF too) before the `{`, which JSON allows: no file has such a name, so it
        // is the JSON.
        if payload.startsAfterBlanks(with: "{"), !FileSystem.isRegularFile(payload) {
            return SendPayload(payload: Payload(bytes: Array(payload.utf8)), name: "(inline)")
        }
        var interrupts: (any InterruptSource)?
        do {
            return SendPayload(
                payload: try Payload.load(path: payload, standardInput: world.standardInput) {
                    // Asked only for a read that may wait: on a terminal, nothing else says why nothing happens.
                    if FileSystem.namesStandardInput(payload) {
                        world.sayWhenReadingTheTerminal("send", "the payload", "type or paste the JSON")
                    }
                    interrupts = world.interrupts()
                    return interrupts?.fd
                }, name: payload)
        } catch .interrupted {
            throw Self.interrupted(interrupts, reading: payload == "-" ? "PAYLOAD -" : "PAYLOAD \(payload)")
        } catch {
            if let slip = Self.valueOfASwitch(payload, in: world.commandLine) { throw slip }
            if let slip = Self.passphraseAfterCredential(payload, in: world.commandLine) { throw slip }
            // A token as PAYLOAD (`-d $(cat two-tokens.txt)`, `-d` forgotten) is a slip of the command line, 64 as
            // three pasted tokens are, not a missing file.
            if let advice = Self.unquotedText(payload, in: world.commandLine) == nil
                ? Self.tokenAsPayload(payload) : nil
            {
                throw CLIError.usage(error.message + "; " + advice)
            }
            // `-d my-iphone qa-ipad`: the second name, a device of the settings file, taken for PAYLOAD.
            if deviceNames.entries[payload] != nil, Self.unquotedText(payload, in: world.commandLine) == nil {
                throw CLIError.usage(
                    error.message + "; \(payload.escapingControlsForOutput()) is a device name of the settings file: "
                        + "give each device with -d (-d \(ShellWord.of(payload)))")
            }
            // Over every push type's size limit: invalid as a payload (65), the file being there to read.
            if error.isOverReadLimit {
                throw CLIError.payloadInvalid(error.message + "; " + Payload.overReadLimitAdvice)
            }
            throw CLIError.inputMissing(
                error.message + "; "
                    + (Self.unquotedText(payload, in: world.commandLine) ?? Self.tokenAsPayload(payload)
                        ?? Self.curlAtFile(payload) ?? Self.alertTextAsPayload(payload)
                        ?? "give a payload file, - for standard input, or inline JSON starting with {"))
        }
    }

    /// `--cert push.p12 S3cret`: the passphrase typed after the file, as curl's and some tools' habits go, taken
    /// for PAYLOAD (a file that does not exist). Never repeated (it may be the secret), and said where it goes.
    /// Only a word no other advice is about: `StrayPassphraseArgument`'s rule, and no file's name (a dot) or `@FILE`.
    static func passphraseAfterCredential(_ payload: String, in arguments: [String]) -> CLIError? {
        guard !FileSystem.exists(payload), !payload.contains("."), !payload.hasPrefix("@"),
            StrayPassphraseArgument.mayBePassphrase(payload, command: "send", arguments: arguments)
        else { return nil }
        // `--cert FILE WORD` or `--cert=FILE WORD`.
        guard
            let i = arguments.indices.first(where: { i in
                arguments[i] == payload
                    && ((i >= 2 && ["--cert", "--key"].contains(arguments[i - 2]))
                        || (i >= 1 && (arguments[i - 1].hasPrefix("--cert=") || arguments[i - 1].hasPrefix("--key="))))
            })
        else { return nil }
        let before =
            arguments[i - 1].hasPrefix("--")
            ? ShellWord.of(arguments[i - 1]) : "\(arguments[i - 2]) \(ShellWord.of(arguments[i - 1]))"
        return .usage(
            "PAYLOAD, the word after \(before), names no file (not repeated, in case it is the passphrase): send takes the passphrase from --passphrase-file FILE, APNSCTL_PASSPHRASE, --passphrase or a prompt on the terminal, never as a bare argument"
        )
    }

    /// `--content-available 1`, as the key reads in JSON: the flag takes no value, and its `1` came as PAYLOAD (a
    /// file that does not exist). A usage slip, 64, not a missing file.
    static func valueOfASwitch(_ payload: String, in arguments: [String]) -> CLIError? {
        let switches = ["--content-available", "--mutable-content", "--input-push-token"]
        let no = ["0", "false", "no", "off"].contains(payload.lowercased())
        guard no || ["1", "true", "yes", "on"].contains(payload.lowercased()), !FileSystem.exists(payload),
            let i = arguments.indices.first(where: {
                $0 >= 1 && arguments[$0] == payload && switches.contains(arguments[$0 - 1])
            })
        else { return nil }
        let flag = arguments[i - 1]
        // `--content-available 0`: leaving out the value alone would write the 1 the user meant to avoid.
        return .usage(
            no
                ? "\(flag) takes no value, and writes \(flag.dropFirst(2)): 1; to send without it, leave out \(flag) and its \(payload)"
                : "\(flag) takes no value (it writes \(flag.dropFirst(2)): 1 itself); leave out \(payload)")
    }

    /// `apnsctl send -d TOKEN "Hello world"`: text with a blank, no file's name, given where a payload goes.
    static func alertTextAsPayload(_ payload: String) -> String? {
        // A file's name with a blank (my payload.json) or JSON without its braces is no notification text.
        let lower = payload.lowercased()
        guard payload.contains(" "), !payload.contains(where: { "/{}".contains($0) }), !payload.hasPrefix("\""),
            !payload.contains("\":"), !lower.hasSuffix(".json"), !lower.hasSuffix(".apns"), !FileSystem.exists(payload),
            FileSystem.blankAround(payload).isEmpty
        else { return nil }
        return "if it is the notification's text, give it with --alert: --alert \(ShellWord.of(payload))"
    }

    /// `--alert Hello world`: the shell split the text, and its last word came as PAYLOAD. The advice for a
    /// PAYLOAD file that does not exist right after a text flag's one-word value: quote the whole text.
    static func unquotedText(_ payload: String, in arguments: [String]) -> String? {
        let textFlags = ["--alert", "--title", "--subtitle"]
        guard !FileSystem.exists(payload), let i = arguments.lastIndex(of: payload), i >= 2,
            textFlags.contains(arguments[i - 2])
        else { return nil }
        let text = arguments[i - 1] + " " + payload
        return
            "if it is the rest of the \(arguments[i - 2]) text, quote the text: \(arguments[i - 2]) \(ShellWord.of(text))"
    }

    /// curl's `@payload.json` given as PAYLOAD: the argument is the file's name itself.
    static func curlAtFile(_ payload: String) -> String? {
        guard payload.hasPrefix("@"), FileSystem.isRegularFile(String(payload.dropFirst())) else { return nil }
        return "PAYLOAD is the file's name without curl's @: give \(ShellWord.of(String(payload.dropFirst())))"
    }

    /// A device token given as PAYLOAD (`-d` forgotten, or typed once too often): the advice is `-d`.
    static func tokenAsPayload(_ payload: String) -> String? {
        guard !FileSystem.exists(payload), let token = try? DeviceToken(parsing: payload),
            token.hex.utf8.count >= DeviceToken.issuedHexDigits
        else { return nil }
        return "it looks like a device token: give each token with -d (-d TOKEN)"
    }

    /// The payload to send: the payload flags (their `@FILE` values read first), then PAYLOAD, then the two made
    /// into one by `SendPayload.applying`.
    func loadPayload(
        type: PushDescription.RequestedType, now: Int64, settings: ResolvedSettings, in world: CommandWorld
    ) throws(CLIError) -> SendPayload {
        let readers = try standardInputReaders(settings)
        let flags = try payloadFlags(in: world, stdinReaders: readers)
        let read = try readPayload(deviceNames: settings.devices, in: world)
        let payload = try SendPayload.applying(flags, to: read, type: type, now: now)
        // `cat alert.json | apnsctl send -d TOKEN`: without `-` the pipe is never read, and the default alert goes
        // out in its place. Said only of JSON waiting there: a `while read` loop's token list waits there too, and is
        // the loop's.
        if read == nil, flags.isEmpty, readers.isEmpty,
            String(decoding: FileSystem.waitingInput(world.standardInput, count: 256), as: UTF8.self)
                .trimmingBlanks().hasPrefix("{")
        {
            world.standardError.warning(
                "standard input holds JSON that is not read: no PAYLOAD was given, so the default payload "
                    + "\(String(decoding: payload.payload.body, as: UTF8.self)) is used; to send that JSON instead, "
                    + "give - as PAYLOAD (apnsctl send - …)")
        }
        return payload
    }

    /// What reads standard input besides the payload flags' `@-`: PAYLOAD `-`, `--devices -`, a passphrase file
    /// `-`. Two of them is 64 before anything is read: the first would take the other's bytes (a passphrase read
    /// as a device token, and quoted).
    func standardInputReaders(_ settings: ResolvedSettings) throws(CLIError) -> [String] {
        var readers: [String] = []
        if let payload, FileSystem.namesStandardInput(payload) { readers.append("PAYLOAD \(payload)") }
        if let devicesFile, FileSystem.namesStandardInput(devicesFile) {
            readers.append("--devices \(devicesFile)")
        }
        readers += settings.standardInputReaders
        try StandardInputReaders.check(readers)
        return readers
    }
}
