import ArgumentParser

/// `send` parsed without the argument parser's reflection, for the command lines users type most: every
/// argument a known `--name value`, `--name=value`, `-x value` or `--flag`, and at most one payload. The
/// parser spends about a third of a one-device send building `send`'s ~60 options through reflection and
/// protocol-conformance lookups; this walk matches the names in `arguments` and sets `Send`'s properties
/// directly, converting values as the parser does (`ExpressibleByArgument`). Anything else (a name it does
/// not know, `--help`, `--`, joined short flags, a value that looks like a flag or is empty, an option given
/// twice, a value that does not convert, a failed `validate()`) returns nil and the parser decides, with its
/// own messages. `SendQuickParserTests` checks `arguments` against the parser's own list of `send`'s
/// arguments, and every option's result against the parser's.
enum SendQuickParser {
    enum Kind: Equatable, Sendable {
        /// `--flag`: true when given.
        case flag
        /// `--name VALUE`, once.
        case option
        /// `--name VALUE`, any number of times, in order.
        case repeating
    }

    /// One of `send`'s arguments: its spellings (none for the payload), and how its values set `Send`.
    struct Argument: Sendable {
        let names: [String]
        let kind: Kind
        let assign: @Sendable (inout APNSCtl.Send, [String]) throws -> Void

        init(_ names: [String], _ kind: Kind, assign: @escaping @Sendable (inout APNSCtl.Send, [String]) throws -> Void) {
            self.names = names
            self.kind = kind
            self.assign = assign
        }
    }

    /// A value the option would not take (the parser then says why).
    struct NotConverted: Error {}

    /// The last value as the parser converts it, or nil when none was given.
    static func converted<T: ExpressibleByArgument>(_ values: [String], to type: T.Type) throws -> T? {
        guard let last = values.last else { return nil }
        guard let value = T(argument: last) else { throw NotConverted() }
        return value
    }

    /// `send`'s options as declared in `Send` and its option groups: spellings, how each takes a value, and
    /// how its values (none when not given) set its property. Every property is set, given or not, so none is
    /// left in the parser's "definition" state (reading one would stop the program).
    static let arguments: [Argument] = [
        Argument([], .option) { $0.payload = $1.last },
        Argument(["-d", "--device"], .repeating) { $0.devices = $1 },
        Argument(["--devices"], .option) { $0.devicesFile = $1.last },
        Argument(["-p", "--profile"], .option) { $0.settingsOptions.profile = $1.last },
        Argument(["--config"], .option) { $0.settingsOptions.file.config = $1.last },
        Argument(["-t", "--topic"], .option) { $0.request.topic = $1.last },
        Argument(["--push-type"], .option) { $0.request.pushType = $1.last },
        Argument(["--priority"], .option) { $0.request.priority = $1.last },
        Argument(["--expiration"], .option) { $0.request.expiration = $1.last },
        Argument(["--collapse-id"], .option) { $0.request.collapseID = $1.last },
        Argument(["--apns-id"], .option) { $0.request.apnsID = $1.last },
        Argument(["--size-limit"], .option) { $0.request.sizeLimit = $1.last },
        Argument(["--minify"], .flag) { $0.request.minify = !$1.isEmpty },
        Argument(["--alert"], .option) { $0.request.alert = $1.last },
        Argument(["--title"], .option) { $0.request.title = $1.last },
        Argument(["--badge"], .option) { $0.request.badge = $1.last },
        Argument(["--sound"], .option) { $0.request.sound = $1.last },
        Argument(["--live-activity"], .option) { $0.liveActivity.event = $1.last },
        Argument(["--content-state"], .option) { $0.liveActivity.contentState = $1.last },
        Argument(["--attributes-type"], .option) { $0.liveActivity.attributesType = $1.last },
        Argument(["--attributes"], .option) { $0.liveActivity.attributes = $1.last },
        Argument(["--stale-date"], .option) { $0.liveActivity.staleDate = $1.last },
        Argument(["--dismissal-date"], .option) { $0.liveActivity.dismissalDate = $1.last },
        Argument(["--relevance-score"], .option) { $0.liveActivity.relevanceScore = $1.last },
        Argument(["--input-push-token"], .flag) { $0.liveActivity.inputPushToken = !$1.isEmpty },
        Argument(["--input-push-channel"], .option) { $0.liveActivity.inputPushChannel = $1.last },
        Argument(["--timestamp"], .option) { $0.liveActivity.timestamp = $1.last },
        Argument(["--content-changed"], .flag) { $0.liveActivity.contentChanged = !$1.isEmpty },
        Argument(["-c", "--cert"], .option) { $0.certificate.cert = $1.last },
        Argument(["-k", "--key"], .option) { $0.certificate.key = $1.last },
        Argument(["--passphrase"], .option) { $0.passphrase.passphrase = $1.last },
        Argument(["--passphrase-file"], .option) { $0.passphrase.passphraseFile = $1.last },
        Argument(["--auth-key"], .option) { $0.tokenAuth.key.authKey = $1.last },
        Argument(["--key-id"], .option) { $0.tokenAuth.key.keyID = $1.last },
        Argument(["--team-id"], .option) { $0.tokenAuth.key.teamID = $1.last },
        Argument(["--no-token-cache"], .flag) { $0.tokenAuth.noTokenCache = !$1.isEmpty },
        Argument(["-e", "--env"], .option) { $0.connection.environment = $1.last },
        Argument(["--endpoint"], .repeating) { $0.connection.endpoints = $1 },
        Argument(["--port"], .option) { $0.connection.port = try converted($1, to: Int.self) },
        Argument(["--proxy"], .option) { $0.connection.proxy = $1.last },
        Argument(["--noproxy"], .option) { $0.connection.noProxy = $1.last },
        Argument(["--ca-file"], .option) { $0.connection.caFile = $1.last },
        Argument(["--insecure"], .flag) { $0.connection.insecure = !$1.isEmpty },
        Argument(["--concurrency"], .option) { $0.connection.concurrency = try converted($1, to: Int.self) },
        Argument(["--timeout"], .option) { $0.connection.timeout = try converted($1, to: Double.self) },
        Argument(["--channel"], .repeating) { $0.broadcast.channels = $1 },
        Argument(["--request-id"], .option) { $0.broadcast.requestID = $1.last },
        Argument(["-o", "--output"], .option) { $0.output = $1.last },
        Argument(["-q", "--quiet"], .flag) { $0.quiet = !$1.isEmpty },
        Argument(["--color"], .option) { $0.color = try converted($1, to: ColorMode.self) },
        Argument(["-v", "--verbose"], .flag) { $0.verbose = !$1.isEmpty },
        Argument(["--resend-unknown"], .flag) { $0.resendUnknown = !$1.isEmpty },
        Argument(["--dry-run"], .flag) { $0.dryRun = !$1.isEmpty },
    ]

    /// Each name's index in `arguments`.
    static let index: [String: Int] = {
        var table: [String: Int] = [:]
        for (n, argument) in arguments.enumerated() {
            for name in argument.names { table[name] = n }
        }
        return table
    }()

    /// `send`'s arguments (after the command word) as a `Send`, or nil when the parser must judge them.
    static func parse(_ arguments: [String]) -> APNSCtl.Send? {
        guard let values = match(arguments) else { return nil }
        var send = APNSCtl.Send()
        // The option groups first: a group left as the parser declared it cannot be read or written into.
        send.settingsOptions = ProfileOptions()
        send.settingsOptions.file = ConfigFileOptions()
        send.request = SendRequestOptions()
        send.liveActivity = LiveActivityOptions()
        send.certificate = CertificateOptions()
        send.passphrase = PassphraseOptions()
        send.tokenAuth = TokenAuthOptions()
        send.tokenAuth.key = AuthKeyOptions()
        send.connection = SendConnectionOptions()
        send.broadcast = BroadcastOptions()
        do {
            for (n, argument) in Self.arguments.enumerated() { try argument.assign(&send, values[n] ?? []) }
            // The parser validates each group as it decodes it, then the command.
            try send.settingsOptions.file.validate()
            try send.settingsOptions.validate()
            try send.request.validate()
            try send.liveActivity.validate()
            try send.certificate.validate()
            try send.passphrase.validate()
            try send.tokenAuth.key.validate()
            try send.tokenAuth.validate()
            try send.connection.validate()
            try send.broadcast.validate()
            try send.validate()
        } catch {
            return nil
        }
        return send
    }

    /// The values given for each argument (by its index in `arguments`), or nil for anything outside the
    /// forms above.
    static func match(_ arguments: [String]) -> [Int: [String]]? {
        var values: [Int: [String]] = [:]
        var position = arguments.startIndex
        while position < arguments.endIndex {
            let argument = arguments[position]
            position += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                guard values[payload] == nil else { return nil }
                values[payload] = [argument]
                continue
            }
            var name = Substring(argument)
            var attached: Substring?
            if argument.hasPrefix("--") {
                if let equals = argument.firstIndex(of: "=") {
                    name = argument[..<equals]
                    attached = argument[argument.index(after: equals)...]
                }
            } else if argument.utf8.count != 2 {
                return nil  // -qv, -ojson, a negative number: the parser's forms
            }
            guard let n = index[String(name)] else { return nil }
            let kind = Self.arguments[n].kind
            if kind != .repeating, values[n] != nil { return nil }
            switch kind {
            case .flag:
                guard attached == nil else { return nil }
                values[n] = ["true"]
            case .option, .repeating:
                let value: String
                if let attached {
                    value = String(attached)
                } else {
                    guard position < arguments.endIndex else { return nil }
                    value = arguments[position]
                    position += 1
                }
                guard !value.isEmpty, !value.hasPrefix("-") || value == "-" else { return nil }
                values[n, default: []].append(value)
            }
        }
        return values
    }

    /// The payload's index in `arguments` (it has no name).
    static let payload = 0
}
