import APNSClient
import APNSCore
import APNSPlatform

/// The one parser per kind: a flag, a variable and a profile value go through the same code, and a bad value
/// names its origin (`--priority 7`, `APNSCTL_PRIORITY=7`, `config.toml:9: priority = 7`), one line, exit 64.
public enum SettingParser {
    /// Where relative and `~/` paths of a profile are anchored.
    public struct Paths: Sendable, Equatable {
        /// The user's home, for `~/`.
        public let home: String
        /// The settings file's folder, for relative paths in a profile.
        public let baseDirectory: String
        /// Why there is no home, when there is none (`Environment.HomeAbsence.homeReason`): a `~` in a profile is
        /// then refused saying so (it was looked for in a folder named `~`, and called a shell's slip).
        public let noHome: String?

        public init(home: String, baseDirectory: String, noHome: String? = nil) {
            (self.home, self.baseDirectory, self.noHome) = (home, baseDirectory, noHome)
        }
    }

    /// Parses `raw` for `setting` as `command` reads it (`--env` allows `auto` only for send, `both` for doctor).
    public static func parse(
        _ raw: RawSetting, for setting: Setting, command: SettingCommand, origin: SettingOrigin,
        paths: Paths
    ) throws(SettingsProblem) -> SettingValue {
        func bad(_ reason: String) -> SettingsProblem {
            .usage(prefix(raw, setting: setting, origin: origin) + ": " + reason)
        }
        /// A variable's value no message may quote (`VariableEcho`): a problem is told without the parser's words,
        /// which quote the value.
        var unquotable: String? {
            guard case .variable = origin, case .argument(let s) = raw, !VariableEcho.mayEcho(s) else { return nil }
            return VariableEcho.description(of: s)
        }
        func string() throws(SettingsProblem) -> String {
            switch raw {
            case .argument(let s): return s
            case .toml(.string(let s)): return s
            case .toml(let other): throw bad("expected a string, found \(other.typeName)")
            }
        }
        /// Settings whose flag takes a number or a word (`1h`, `4k`): a TOML integer or string.
        func stringOrInteger() throws(SettingsProblem) -> String {
            if case .toml(.integer(let n)) = raw { return String(n) }
            return try string()
        }
        /// A path from a variable is quoted by every message about its file, by `-v` and by `--dry-run`: one too
        /// long to quote is refused rather than printed.
        func quotablePath(_ text: String) throws(SettingsProblem) {
            guard case .variable = origin, text.count > VariableEcho.limit else { return }
            // A CI secret holding a credential file in base64 (what `base64 push.p12` prints): no path at all.
            if setting.kind == .credential { try base64File(text) }
            throw bad(
                "a path of \(text.count) characters, more than a message quotes of a variable (\(VariableEcho.limit)); "
                    + "give a shorter path (a link to the file, say)"
                    + (setting.kind == .credential ? " or the PEM text itself" : ""))
        }
        /// A key's base64 body without its BEGIN and END lines (on one line, or as copied from between them): said,
        /// with the lines it needs. `always`: whatever its first bytes hold (a one-line value no file has as name).
        func keyBody(_ text: String, always: Bool = false) throws(SettingsProblem) {
            guard VariableEcho.isKeyBody(text) else { return }
            let kind = Base64DERKind(base64: text)
            guard always || kind == .privateKey || kind == .encryptedPrivateKey else { return }
            throw bad(
                "holds \(VariableEcho.description(of: text)), not shown, and no file has that name: put the key's "
                    + "-----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines around it in \(setting.variable), "
                    + "or give the path of its file")
        }
        /// A credential variable holding a whole file in base64 (`base64 push.p12`, wrapped at 76 columns or not).
        func base64File(_ text: String) throws(SettingsProblem) {
            guard Base64DERKind.isBase64Text(text.utf8), text.count > VariableEcho.limit else { return }
            let kind = Base64DERKind(base64: String(text.prefix(while: { !$0.isNewline })))
            // The name the decoded file is given: what it holds (a PEM file encoded whole decodes to PEM text).
            let file =
                if kind == .certificate { "push.cer" } else if setting.name == "auth-key" {
                    "AuthKey.p8"
                } else if text.hasPrefix(Base64DERKind.encodedPEMStart) { "push.pem" } else { "push.p12" }
            let characters = text.filter { !$0.isNewline }.count
            throw bad(
                "\(characters) characters of base64 (a file encoded for a CI secret, say), not a path or PEM text; "
                    + "decode it to a file of your own and give its path, e.g. umask 077; "
                    + "printf %s \"$\(setting.variable)\" | base64 -d > \(file), then \(setting.variable)=\(file)")
        }

        /// A key's body or a provider token written in a profile where a path goes: joined to the file's folder it
        /// would no longer look like one, and every message about the path would print it.
        func refuseSecretInFile(_ text: String) throws(SettingsProblem) {
            guard case .toml = raw else { return }
            let bare = text.hasPrefix("~/") ? String(text.dropFirst(2)) : text
            guard VariableEcho.isSecretText(bare) else { return }
            throw bad(
                "holds \(VariableEcho.description(of: bare)) (not shown), not a file's path; give the path of the file "
                    + "that holds the key")
        }
        /// A blank kept around a path (`APNSCTL_CERT='push.p12 '` from a .env file, a quoted copy): the slip is said,
        /// where "no such file" printed a name that looked right.
        func blankAround(_ s: String) throws(SettingsProblem) {
            let trimmed = s.trimmingBlanks()
            if trimmed != s, !trimmed.isEmpty, !FileSystem.exists(path(s)), FileSystem.exists(path(trimmed)) {
                throw bad(
                    "the path \(PrintableText.quoted(trimmed)) has a blank around it (kept by quotes or a .env file's line); remove it"
                )
            }
        }

        /// `-` in a settings file: standard input, which only a command line reads. Taken as a path it named a file
        /// called `-` beside the settings file, "no such file" (66), and one there would be used; `config set`
        /// refuses to write it, with these words.
        func refuseStandardInput(_ s: String) throws(SettingsProblem) {
            guard case .profile = origin, s == "-" else { return }
            throw bad(
                "- is standard input, which a command line reads and a profile cannot; save what you would pipe to a "
                    + "file and give the file's path")
        }

        func path(_ text: String) -> String {
            guard case .toml = raw else { return text }
            return expand(text, paths: paths)
        }

        /// A `~` in a profile's path that it cannot stand for (`tildeProblem`): said.
        func refuseTildeWithoutHome(_ s: String) throws(SettingsProblem) {
            guard case .toml = raw, let problem = tildeProblem(s, paths: paths) else { return }
            throw bad(problem)
        }

        switch setting.kind {
        case .word:
            let s = try string()
            guard !s.isEmpty else { throw bad("empty value; give one or leave the setting out") }
            // A provider token or a key pasted as the topic would go out in a header and into the history.
            if VariableEcho.isSecretText(s) {
                throw bad("\(VariableEcho.description(of: s)), not shown: a secret, not a \(setting.name)")
            }
            // A word is a header value: the header rule says where the space or control character is
            // (`--topic "com.example.app ": ends with a space`), as the commands' checks of other headers do.
            if let problem = HeaderValueRule.problem(in: s) {
                throw bad("\(problem); \(HeaderValueRule.advice)")
            }
            // Ids and topics are far shorter; a longer value is a file pasted by mistake, and would be quoted.
            guard s.count <= VariableEcho.limit else {
                throw bad("\(s.count) characters; a \(setting.name) has at most \(VariableEcho.limit)")
            }
            return .text(s)
        case .identifier:
            // Checked where it was written, so a profile's or variable's bad id is named there, not as a flag.
            let s = try string()
            guard !s.isEmpty else { throw bad("empty value; give one or leave the setting out") }
            guard DeveloperID.isWellFormed(s) else {
                let what = String(setting.name.map { $0 == "-" ? " " : $0 })
                // A secret store's value often ends with a line break, and a pasted one with a space.
                if DeveloperID.isWellFormed(s.trimmingBlanks()) {
                    throw bad(
                        "whitespace or a line break around the \(what) (a trailing space or line break is the usual copy-paste mistake); remove it"
                    )
                }
                if !VariableEcho.mayEcho(s) {
                    throw bad(
                        "\(VariableEcho.description(of: s)), not a \(what): a file pasted in? give the 10-character id")
                }
                if DeveloperID.isWellFormed(s.uppercased()) {
                    throw bad("not a \(what): the portal shows it in capitals; give \(s.uppercased())")
                }
                throw bad(
                    "not a \(what); it must be 10 characters A-Z and 0-9, as shown in the Apple Developer portal")
            }
            return .text(s)
        case .text:
            return .text(try string())
        case .path:
            let s = try string()
            guard !s.isEmpty else { throw bad("empty path") }
            try refuseStandardInput(s)
            // A variable holding a file's text instead of its path (`APNSCTL_CA_FILE="$(cat ca.pem)"`): said, never
            // taken as a path that every message would then quote.
            if case .variable = origin, s.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                throw bad(
                    "holds text with a line break (\(VariableEcho.description(of: s))), not a path; give the file's path"
                )
            }
            // A file's text pasted as a flag's or profile's path (`--ca-file="$(cat client.pem)"`, a key among it).
            if s.contains("-----BEGIN") {
                throw bad(
                    "holds PEM text (\(VariableEcho.description(of: s)), not shown), not a file's path; give the file's path"
                )
            }
            try refuseTildeWithoutHome(s)
            try blankAround(s)
            try refuseSecretInFile(s)
            try quotablePath(s)
            return .path(path(s))
        case .credential:
            let s = try string()
            guard !s.isEmpty else { throw bad("empty path") }
            try refuseStandardInput(s)
            if case .variable(let name) = origin, CredentialSource.isPEM(s) {
                // Wrapped base64 (GNU base64 breaks lines at 76 columns) has line breaks and no BEGIN line: a key's
                // body copied from between its BEGIN and END lines, or a whole file encoded.
                if !s.contains("-----BEGIN") {
                    try keyBody(String(s.filter { !$0.isWhitespace }))
                    try base64File(s)
                }
                // A path with a line break after it (a .env file saved on Windows, `echo` into $GITHUB_ENV) is no
                // PEM: said as the slip it is, not "not a certificate".
                let trimmed = s.trimmingBlanks()
                if !s.contains("-----BEGIN"), !trimmed.isEmpty, !trimmed.contains(where: { $0.isNewline }),
                    FileSystem.exists(trimmed)
                {
                    throw bad(
                        "the path \(PrintableText.quoted(trimmed)) has a line break or blank around it (a .env file "
                            + "saved on Windows ends each line with a CR); remove it")
                }
                return .credential(.pem(text: s, variable: name))
            }
            if s.contains("-----BEGIN") {
                // A file's text pasted where its path goes (`--auth-key="$(cat AuthKey.p8)"`): taken as a path, every
                // message naming the file would print the key. Only a variable may hold the text (CI secret stores).
                throw bad(
                    "holds PEM text (\(VariableEcho.description(of: s)), not shown), not a file's path; give the path "
                        + "of the file, or, where a secret store holds the text (CI), put it in \(setting.variable)")
            }
            try refuseTildeWithoutHome(s)
            try blankAround(s)
            // A .p8's body without its BEGIN and END lines (copied from between them into a CI secret): no path,
            // and "no such file" said nothing of the lines it needs.
            if case .variable = origin, let core = VariableEcho.secretCore(of: s), VariableEcho.isKeyBody(core),
                !FileSystem.exists(path(s))
            {
                // `base64 -w0 push.p12` starts `MII` too: a whole file, to be decoded, not a key missing its lines.
                let kind = Base64DERKind(base64: core)
                if kind == .pkcs12 || kind == .certificate { try base64File(core) }
                try keyBody(core, always: true)
            }
            try refuseSecretInFile(s)
            try quotablePath(s)
            return .credential(.file(path(s)))
        case .secret:
            return .secret(try string())
        case .boolean:
            switch raw {
            case .toml(.boolean(let b)): return .boolean(b)
            case .toml(let other): throw bad("expected true or false, found \(other.typeName)")
            case .argument(let s):
                switch s.lowercased() {
                case "1", "true", "yes", "on": return .boolean(true)
                case "0", "false", "no", "off": return .boolean(false)
                default: throw bad("not a boolean; use 1, true, yes or on, or 0, false, no or off")
                }
            }
        case .environment:
            let s = try string()
            let lower = s.lowercased()
            if lower == "auto" {
                // A profile (or variable) shared with send: its auto means "whichever environment the token is in",
                // which for doctor is its default (the certificate's environments; both with token auth), not a
                // demand for both that a one-environment certificate fails. Doctor's own --env auto stays refused,
                // with the words doctor takes.
                if command == .doctor {
                    if case .flag = origin {} else { return .environment(.auto) }
                }
                guard command == .send else {
                    throw bad(environmentAdvice(command, "auto is for send only (it tries both environments)"))
                }
                return .environment(.auto)
            }
            if lower == "both" {
                guard command == .doctor else {
                    throw bad(environmentAdvice(command, "both is for doctor only (it probes both environments)"))
                }
                return .environment(.both)
            }
            guard let e = APNSEnvironment(userValue: s) else {
                throw bad(
                    environmentAdvice(command, "unknown environment")
                        + Suggestion.didYouMean(s, among: environmentNames(command)))
            }
            return .environment(.one(e))
        case .endpoints:
            var values: [String]
            switch raw {
            case .argument(let s):
                // A variable holds a comma-separated list; a flag one value (it repeats instead).
                if case .variable = origin {
                    values = s.split(separator: ",", omittingEmptySubsequences: false).map {
                        String($0).trimmingBlanks()
                    }
                    // `"$SANDBOX_URL,$PROD_URL"` with a variable unset: without this, the list would be one URL for
                    // both environments, or none (Apple's hosts) for a mock or staging run.
                    if values.contains("") {
                        throw bad(
                            "an empty item in the list (an unset variable?); give https://host:port, or sandbox=URL,production=URL"
                        )
                    }
                } else {
                    values = [s]
                }
            case .toml(.string(let s)): values = [s]
            case .toml(.array(let items)):
                values = []
                for item in items {
                    guard case .string(let s) = item.value else {
                        throw bad("expected strings in the array, found \(item.value.typeName)")
                    }
                    values.append(s)
                }
                if values.isEmpty {
                    throw bad("an empty list; give https://host:port, or leave endpoint out for Apple's hosts")
                }
            case .toml(let other): throw bad("expected a string or an array of strings, found \(other.typeName)")
            }
            do { return .endpoints(try PushEndpoints(arguments: values), values) } catch {
                if let unquotable { throw bad("\(unquotable) is not a list of endpoints; give https://host:port") }
                throw .usage(prefix(raw, setting: setting, origin: origin, echo: false) + " " + error.message)
            }
        case .port:
            // Whether Apple's hosts listen there is the plan's to say: beside an endpoint, the port is unused.
            let n = try integer(raw, bad: bad)
            guard (1...65535).contains(n) else { throw bad("not a port; Apple's push hosts listen on 443 and 2197") }
            return .integer(n)
        case .concurrency:
            let n = try integer(raw, bad: bad)
            guard n >= 1, n <= SenderConfiguration.maximumConcurrency else {
                throw bad("must be from 1 to \(SenderConfiguration.maximumConcurrency)")
            }
            return .integer(n)
        case .count:
            let n = try integer(raw, bad: bad)
            guard n >= 1 else { throw bad("must be 1 or more") }
            return .integer(n)
        case .seconds:
            let d: Double
            switch raw {
            case .toml(.integer(let n)): d = Double(n)
            case .toml(.float(let f)): d = f
            case .toml(.string(let s)) where TimeValue.durationSeconds(s) != nil:
                throw bad(Self.secondsAdvice(s, written: "\(setting.name) = "))
            case .toml(let other): throw bad("expected a number of seconds, found \(other.typeName)")
            case .argument(let s):
                let text = s.trimmingBlanks()
                // Decimal only: Double also reads `0x10` (16) and `1e-9`, which nobody means as a timeout.
                let decimal =
                    !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
                    && text.filter { $0 == "." }.count <= 1 && text != "."
                guard decimal, let v = Double(text) else {
                    if TimeValue.durationSeconds(text) != nil {
                        throw bad(Self.secondsAdvice(text, written: ""))
                    }
                    if let v = Double(text), v.isFinite, v >= 0.001, v <= 86_400 {
                        throw bad("a number of seconds in decimal, such as \(Self.decimalSeconds(v))")
                    } else if let v = Double(text), !v.isNaN {
                        // `-5` is decimal already: only another way of writing a number is told so.
                        let other = !text.dropFirst(text.hasPrefix("-") ? 1 : 0).allSatisfy { $0.isNumber || $0 == "." }
                        throw bad(
                            "must be from 0.001 (a millisecond) to 86400 seconds (a day)"
                                + (other ? ", in decimal" : ""))
                    }
                    throw bad("not a number of seconds")
                }
                d = v
            }
            // Below a millisecond no connection could ever be made, and the failure would blame the server.
            guard d.isFinite, d >= 0.001, d <= 86_400 else {
                throw bad("must be from 0.001 (a millisecond) to 86400 seconds (a day)")
            }
            return .seconds(d)
        case .pushType:
            let s = try string()
            guard let t = PushType(userValue: s) else {
                // A topic suffix copied for the type (`voip-ptt`, `location-query`): named as the suffix it is.
                let word = s.trimmingBlanks().lowercased()
                if let type = PushType.allCases.first(where: {
                    !$0.topicSuffix.isEmpty
                        && ($0.topicSuffix.dropFirst() == word || $0.topicSuffix.hasSuffix(".\(word)"))
                }) {
                    throw bad(
                        "unknown push type; \(word) is in the topic suffix of \(type.rawValue) pushes (\(type.topicSuffix)): did you mean \(type.rawValue)?"
                    )
                }
                throw bad(
                    "unknown push type; use one of \(PushType.allNames)"
                        + Suggestion.didYouMean(s, among: PushType.allCases.map(\.rawValue)))
            }
            return .pushType(t)
        case .priority:
            let n: Int
            switch raw {
            case .toml(.integer(let v)): n = Int(clamping: v)
            case .toml(let other): throw bad("expected 10, 5 or 1, found \(other.typeName)")
            case .argument(let s): n = Int(s) ?? -1
            }
            guard let p = Priority(rawValue: n) else { throw bad("must be 10, 5 or 1" + priorityAdvice(raw)) }
            return .priority(p)
        case .expiration:
            // An unquoted date-time in the file (`expiration = 2027-01-16T08:00:00Z`) is TOML's own type.
            let text: String
            if case .toml(.dateTime(let written)) = raw { text = written } else { text = try stringOrInteger() }
            do { _ = try RequestDefaults.expiration(text, now: 0) } catch {
                if let unquotable {
                    throw bad(
                        "\(unquotable) is not a time; \(TimeValue.Syntax.expiration.help)"
                    )
                }
                throw bad(error.reason)
            }
            return .expiration(text)
        case .sizeLimit:
            let text = try stringOrInteger()
            switch SizeLimit.reading(text) {
            case .success(let n): return .integer(n)
            case .failure(.notACount): throw bad("not a byte count; use a number or 256, 2k, 4k, 5k")
            case .failure(.zero): throw bad("no payload fits in 0 bytes; use a number from 1, or 256, 2k, 4k, 5k")
            case .failure(.overLargest):
                throw bad(
                    "more than the \(SizeLimit.largest >> 20) MiB apnsctl reads of a payload; APNs takes at most "
                        + "\(SizeLimit.voip) bytes (5k, VoIP) and \(SizeLimit.http2) (4k) for the other push types")
            }
        case .outputFormat:
            let s = try string()
            guard let f = OutputFormat(rawValue: s.lowercased()) else {
                // JSON Lines by its other names: json is that already, one object per line.
                let lines = ["ndjson", "jsonl", "jsonlines", "json-lines", "ldjson"].contains(s.lowercased())
                throw bad(
                    "unknown output format; use text or json"
                        + (lines
                            ? "; json writes one object per line already (JSON Lines), so give json"
                            : Suggestion.didYouMean(s, among: OutputFormat.allCases.map(\.rawValue))))
            }
            return .outputFormat(f)
        case .color:
            let s = try string()
            guard let c = ColorChoice(rawValue: s.lowercased()) else {
                throw bad(
                    "use auto, always or never" + Suggestion.didYouMean(s, among: ColorChoice.allCases.map(\.rawValue)))
            }
            return .color(c)
        case .storage:
            let s = try string().lowercased()
            guard s == "none" || s == "most-recent" else {
                // `most` and `recent` are the halves users remember.
                let half = s.count >= 3 && ("most-recent".hasPrefix(s) || "most-recent".hasSuffix(s))
                throw bad(
                    "unknown policy; use none (No Message Stored) or most-recent"
                        + (half
                            ? "; did you mean \"most-recent\"?"
                            : Suggestion.didYouMean(s, among: ["none", "most-recent"])))
            }
            return .storage(s)
        case .duration:
            let s = try string()
            // --expiration's duration syntax, as doctor documents it (one parser for both).
            guard let seconds = RequestDefaults.durationSeconds(s.trimmingBlanks()) else {
                if TimeValue.isDurationTooLarge(s.trimmingBlanks()) {
                    throw bad("too large; give at most 9 digits before the unit (999999999s is 31 years)")
                }
                throw bad("not a duration; give a number and a unit: 45s, 30m, 12h, 30d or 2w")
            }
            return .duration(seconds, s)
        case .proxy:
            let s = try string()
            // A bare word is taken for a host (curl's way): a token or key pasted here would go out in a CONNECT.
            if VariableEcho.isSecretText(s) {
                throw bad("\(VariableEcho.description(of: s)), not shown: a secret, not a proxy URL")
            }
            if let unquotable {
                throw bad(
                    "\(unquotable) is not a proxy URL; give http://[user:pass@]host:port or socks5h://[user:pass@]host:port"
                )
            }
            if !s.trimmingBlanks().isEmpty {
                let proxy: ProxyServer
                do {
                    proxy = try ProxyServer(url: s, source: prefix(raw, setting: setting, origin: origin, echo: false))
                } catch {
                    throw .usage(error.message)
                }
                if case .profile = origin, proxy.hasPassword {
                    throw .usage(
                        Self.proxyPasswordRefusal(
                            "\(prefix(raw, setting: setting, origin: origin, echo: false)) \(proxy.display)"))
                }
            }
            return .proxy(s)
        }
    }

    /// Why a proxy URL holding a password (`label` names it, the password hidden) is refused in the settings file,
    /// where it is read and where `config set` would write it: secrets never come from the file (a passphrase there
    /// is refused too).
    public static func proxyPasswordRefusal(_ label: String) -> String {
        "\(label): holds the proxy's password, and secrets never come from the settings file; put the URL in APNSCTL_PROXY or https_proxy instead (a CI secret store can fill them)"
    }

    /// A flag's value, for the argument parser's `transform:`: the same conversion as a variable's or a
    /// profile's, its message naming the flag (`--priority 7: …`).
    public static func parseFlag(_ text: String, for setting: Setting, command: SettingCommand) throws(SettingsProblem)
        -> SettingValue
    {
        try parse(
            .argument(text), for: setting, command: command, origin: .flag(setting.flag),
            paths: Paths(home: "", baseDirectory: "."))
    }

    /// `parseFlag` for an option whose type is the setting's value itself (`--color`, and `-o` where it is not a
    /// setting): the same check and message, the value typed. A key's kind always parses to its value type; a
    /// mismatch would be a catalog mistake, reported as a usage error rather than trapped.
    public static func parseFlag<Value>(_ text: String, for key: SettingKey<Value>, command: SettingCommand)
        throws(SettingsProblem) -> Value
    {
        let value = try parseFlag(text, for: key.setting, command: command)
        guard let typed = Value(setting: value) else {
            throw .usage("\(key.setting.flag) \(text): the setting's value is not a \(Value.self)")
        }
        return typed
    }

    private static func integer(_ raw: RawSetting, bad: (String) -> SettingsProblem) throws(SettingsProblem) -> Int {
        switch raw {
        case .toml(.integer(let v)): return Int(clamping: v)
        case .toml(let other): throw bad("expected an integer, found \(other.typeName)")
        case .argument(let s):
            let text = s.trimmingBlanks()
            guard let n = Int(text) else {
                // Digits beyond Int's range are a whole number, only too large to mean anything here.
                let digits = text.drop { $0 == "-" || $0 == "+" }
                let tooLarge = !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                throw bad(tooLarge ? "a number far out of range" : "not a whole number")
            }
            return n
        }
    }

    /// `v` as a plain decimal (`16`, `0.5`), for advice about a value written another way.
    private static func decimalSeconds(_ v: Double) -> String {
        v == v.rounded() && v < 1e15 ? String(Int64(v)) : String(v)
    }

    /// `30s`, `2m`: the duration other flags take, where a number of seconds goes. Its number is advised only when
    /// it would be taken (above 0, at most a day); `written` is how a value is given there (`timeout = ` in a file).
    private static func secondsAdvice(_ duration: String, written: String) -> String {
        guard let seconds = TimeValue.durationSeconds(duration), seconds > 0, seconds <= 86_400 else {
            return "a number of seconds (0.001 to 86400), without a unit"
        }
        return "a number of seconds, without a unit: give \(written)\(seconds)"
    }

    /// The values `--env` takes for `command`, for a "did you mean".
    private static func environmentNames(_ command: SettingCommand) -> [String] {
        let extra = command == .send ? ["auto"] : command == .doctor ? ["both"] : []
        return ["sandbox", "production", "development", "dev", "prod"] + extra
    }

    /// Other tools' names for the two priorities (apns2's high and low, Pushy's immediate and conserve power),
    /// and a near miss of two digits or more (`100`): `; did you mean "10"?`. A single wrong digit gets none, as
    /// two values are equally near.
    private static func priorityAdvice(_ raw: RawSetting) -> String {
        let text: String
        switch raw {
        case .argument(let s): text = s.trimmingBlanks().lowercased()
        case .toml(.integer(let v)): text = String(v)
        case .toml: return ""
        }
        let words = ["high": "10", "immediate": "10", "low": "5", "conserve-power": "5", "conservepower": "5"]
        if let n = words[text] { return "; did you mean \(PrintableText.quoted(n))?" }
        guard text.count >= 2 else { return "" }
        return Suggestion.didYouMean(text, among: Priority.allCases.map { String($0.rawValue) })
    }

    private static func environmentAdvice(_ command: SettingCommand, _ what: String) -> String {
        switch command {
        case .send: return "\(what); use sandbox (development), production or auto"
        case .doctor: return "\(what); use sandbox (development), production or both"
        default: return "\(what); use sandbox (development) or production"
        }
    }

    /// `--priority 7`, `APNSCTL_PRIORITY=7`, `PATH:LINE: priority = 7`; without the value where it may be secret.
    static func prefix(_ raw: RawSetting, setting: Setting, origin: SettingOrigin, echo: Bool? = nil) -> String {
        // A value a message may not quote (a file pasted in: a key, a certificate) is named, never shown,
        // whichever place it came from.
        // A profile's string is judged without the quotes it is shown in (`"eyJ…"` is a token all the same).
        let plain: String
        if case .toml(.string(let s)) = raw { plain = s } else { plain = raw.shown }
        let shows =
            (echo ?? ![.proxy, .secret, .credential].contains(setting.kind)) && VariableEcho.mayEchoArgument(plain)
        let value = raw.shown.escapingControls()
        switch origin {
        case .flag(let f): return shows ? "\(f) \(quotedIfNeeded(raw.shown))" : f
        case .variable(let v): return shows && VariableEcho.mayEcho(raw.shown) ? "\(v)=\(value)" : v
        case .profile(_, let file, let line):
            return shows ? "\(file):\(line): \(setting.name) = \(value)" : "\(file):\(line): \(setting.name)"
        case .mock(_, let file): return shows ? "\(file): \(setting.name) \(value)" : "\(file): \(setting.name)"
        case .defaultValue: return setting.flag
        }
    }

    /// Quoted (controls escaped) when empty or holding whitespace or control characters, so the value is seen
    /// exactly and cannot drive the terminal.
    private static func quotedIfNeeded(_ s: String) -> String {
        s.isEmpty || HeaderValueRule.problem(in: s) != nil ? PrintableText.escapingControls(PrintableText.quoted(s)) : s
    }

    /// Why a profile's path `s` cannot be read as written, when it starts with a `~` a settings file does not
    /// expand: `~/` with no home (`paths.noHome` says why), or `~name/`, which only a shell expands (it was read as
    /// a folder named `~name` beside the file).
    public static func tildeProblem(_ s: String, paths: Paths) -> String? {
        if s == "~" || s.hasPrefix("~/") {
            return paths.noHome.map {
                "~ stands for the home directory, and there is none (\($0)); write the path in full"
            }
        }
        guard let user = FileSystem.tildeUser(s), !user.isEmpty else { return nil }
        return "~\(user)/ is expanded only by a shell (a settings file expands ~/ alone, to your home); "
            + "write the path in full"
    }

    /// `~/x` → `HOME/x`; a relative path → `baseDirectory/x`; an absolute path as it is.
    public static func expand(_ path: String, paths: Paths) -> String {
        if path == "~" { return paths.home }
        if path.hasPrefix("~/") { return paths.home + String(path.dropFirst(1)) }
        if path.hasPrefix("/") { return path }
        return paths.baseDirectory + "/" + path
    }
}
