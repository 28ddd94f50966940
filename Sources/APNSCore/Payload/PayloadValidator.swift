/// The payload rules of APNS.md §4 and CLI.md in one place: `validate` prints them, `send` refuses
/// to send on an error (exit 65), and the mock answers a request body with the same size and JSON checks.
public enum PayloadValidator {
    /// Checks `payload` as it would be sent with `options`. Never traps, whatever the bytes.
    public static func validate(_ payload: Payload, options: ValidationOptions) -> ValidationReport {
        validate(ParsedPayload(payload), options: options)
    }

    /// `validate` of a payload already parsed: no second parse. The report's `pushType` is the one given, else
    /// the one inferred (topic suffix, then payload).
    public static func validate(_ parsed: ParsedPayload, options: ValidationOptions) -> ValidationReport {
        let payload = parsed.payload
        let source = payload.source
        let (root, duplicates, syntaxError) = (parsed.root, parsed.duplicates, parsed.syntaxError)
        let pushType = options.pushType ?? inferPushType(root: root, topic: options.topic)
        let limit = options.sizeLimit ?? options.defaultSizeLimit(for: pushType)
        var checker = PayloadChecker(pushType: pushType, source: source, names: options.settingNames)
        checker.now = options.now
        checker.sending = options.sending
        checker.topic = options.topic
        let rootPath = ValidationProblem.rootPath
        if options.pushType == nil, pushType == .widgets, PushType.inferred(fromTopic: options.topic ?? "") == nil {
            checker.warning(
                rootPath, at: root?.start ?? 0,
                "aps holds only content-changed, the payload of both widgets and controls pushes, so the push type cannot be inferred; checked as widgets: give \(options.settingNames.pushType) widgets or controls"
            )
        }

        // `echo > payload.json` leaves one line break: as empty as no byte at all, whatever a parser says about it.
        let blank = BlankBytes.areBlank(source)
        if payload.bodyCount == 0 || (blank && syntaxError != nil) {
            // What APNs answers is known for no bytes at all, not for a line break.
            let what =
                payload.bodyCount == 0
                ? "payload is empty (APNs answers 400 PayloadEmpty)" : "payload is empty (only whitespace)"
            checker.error(rootPath, at: 0, "\(what); give a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}")
        } else if let syntaxError {
            checker.error(
                rootPath, at: syntaxError.offset,
                Self.buildSeen(in: payload.source).map { "not JSON but \($0): an app build, not a payload" }
                    ?? Self.credentialSeen(in: payload.source).map {
                        "not JSON but \($0): a key or certificate, not a payload"
                    }
                    ?? "not valid JSON: \(syntaxError.message)")
        }
        // The bytes that go out: the minified ones when the sender minifies.
        let size = options.minifiedSize ?? payload.bodyCount
        let what = options.minifiedSize == nil ? "payload" : "minified payload"
        if size > limit {
            let minifiedSize =
                root == nil || options.minifiedSize != nil ? nil : payload.compactCount(alreadyParsed: true)
            checker.error(
                rootPath, at: 0,
                (options.minifiedSize == nil ? "" : "minified ")
                    + sizeMessage(
                        size: size, limit: limit, minified: minifiedSize,
                        escapeSavings: root == nil ? 0 : JSONUnicodeEscapes.savings(payload.source),
                        limitOf: options.sizeLimit != nil
                            ? nil : options.broadcast ? "broadcasts" : "\(pushType.rawValue) pushes",
                        apnsLimit: options.defaultSizeLimit(for: pushType), names: options.settingNames))
        } else if options.sizeLimit != nil, size > options.defaultSizeLimit(for: pushType) {
            // A limit raised past APNs' own passes what APNs refuses: `--size-limit 5k` for an alert push.
            let apnsLimit = options.defaultSizeLimit(for: pushType)
            checker.warning(
                rootPath, at: 0,
                "\(what) is \(size) bytes, within \(options.settingNames.sizeLimit) \(limit) but over the \(apnsLimit) bytes APNs takes for \(pushType.rawValue) pushes (it answers 413 PayloadTooLarge); shorten it"
            )
        }
        checker.reportDuplicates(duplicates)
        if let root {
            if let members = root.members {
                checker.checkDocument(root, members: members, isAPNSFile: payload.isAPNSFile)
                checkEarlierAPSCopies(
                    root, members: members, duplicates: duplicates, isAPNSFile: payload.isAPNSFile, into: &checker)
            } else {
                checker.error(
                    rootPath, at: root.start,
                    "the payload must be a JSON object, found \(root.summary); write {\"aps\":{…}}")
            }
        }
        if options.broadcast, let root { checker.checkBroadcast(root) }
        checker.checkHeaders(priority: options.priority, topic: options.topic)
        return ValidationReport(
            problems: checker.found.problems(in: source, strict: options.strict),
            size: payload.bodyCount, limit: limit, pushType: pushType)
    }

    /// A top-level `aps` given twice: the checking parse keeps the last copy, which most parsers use, but some use
    /// the first, so each earlier copy's errors are reported too (an invalid first copy passed with a warning).
    /// Read again whole for this (rare) case only, for payloads no bigger than `earlierCopiesReadLimit`.
    static func checkEarlierAPSCopies(
        _ root: JSONValue, members: [JSONMember], duplicates: JSONDuplicateKeys, isAPNSFile: Bool,
        into checker: inout PayloadChecker
    ) {
        guard duplicates.listed.contains(where: { $0.path == "aps" }),
            checker.source.count <= earlierCopiesReadLimit,
            let whole = try? JSONReader.parse(checker.source), let all = whole.members
        else { return }
        for copy in all.filter({ $0.key == "aps" }).dropLast() {
            // The same checker (push type, clock, topic), with nothing found yet.
            var other = checker
            other.found = ProblemCollector()
            other.checkDocument(
                root, members: members.map { $0.key == "aps" ? copy : $0 }, isAPNSFile: isAPNSFile)
            for found in other.found.errors(under: "aps") {
                checker.error(found.path, at: found.offset, found.message + " (in an earlier copy of the repeated aps)")
            }
        }
    }

    /// The most a payload may be for its earlier `aps` copies to be read: far past every push type's limit.
    static let earlierCopiesReadLimit = 1 << 20

    /// The push type `send` would use (CLI.md's order): the topic's known suffix; no `aps` and a top-level
    /// `mdm` → `mdm`; `aps.event` → `liveactivity`; `aps` holding only `content-available: 1` →
    /// `background`; only `content-changed: true` → `widgets` (it could be controls: `validate` warns, `send`
    /// asks for the type); else `alert` (also for a payload that is not JSON: `root` nil).
    public static func inferPushType(root: JSONValue?, topic: String?) -> PushType {
        if let topic, let type = PushType.inferred(fromTopic: topic) { return type }
        if let root, root.members != nil, root["aps"] == nil, root["mdm"] != nil { return .mdm }
        guard let aps = root?["aps"]?.members else { return .alert }
        let effective = JSONValue.effectiveMembers(aps)
        if effective.contains(where: { $0.key == APSKey.event.rawValue }) { return .liveactivity }
        if isContentChangedOnly(effective) { return .widgets }
        if effective.count == 1, effective[0].key == APSKey.contentAvailable.rawValue,
            effective[0].value.number?.isIntegerOne == true
        {
            return .background
        }
        return .alert
    }

    /// Whether `aps` (its effective members) holds only `content-changed`: a widgets or controls payload, which of
    /// the two cannot be told from the payload (CLI.md: `send` asks for `--push-type`). Of any value: one that is
    /// not `true` is that payload written wrong, told to write `true` (read as an alert, it was also told to remove
    /// the key).
    public static func isContentChangedOnly(_ aps: [JSONMember]) -> Bool {
        aps.count == 1 && aps[0].key == APSKey.contentChanged.rawValue
    }

    /// "payload is N bytes, M over the L-byte limit [for `limitOf`, the pushes whose default it is] …; minified it
    /// is K bytes and fits: …".
    /// APNs' 413 is promised only past APNs' own limit (`apnsLimit`): under a stricter size limit
    /// (256, 2k for old devices and SDKs) APNs would take the payload, and the message says so.
    /// `escapeSavings`: how much smaller the `\u` escapes of non-ASCII characters written as UTF-8 would make it.
    static func sizeMessage(
        size: Int, limit: Int, minified: Int?, escapeSavings: Int = 0, limitOf: String?, apnsLimit: Int,
        names: SettingNames
    ) -> String {
        var message = "payload is \(size) bytes, \(size - limit) over the \(limit)-byte limit"
        if let limitOf { message += " for \(limitOf)" }
        message +=
            size > apnsLimit
            ? " (APNs answers 413 PayloadTooLarge)"
            : " set with \(names.sizeLimit) (APNs itself takes up to \(apnsLimit))"
        // Escapes of non-ASCII characters (Python's json.dumps writes them unless told not to) are said when
        // writing them plainly makes it fit, and minifying alone does not.
        let plain = { (bytes: Int, minifying: Bool) in
            message
                + "; its \\u escapes of non-ASCII characters take \(escapeSavings) bytes more than the characters "
                + "themselves: written as UTF-8 (Python: json.dumps(..., ensure_ascii=False); jq without -a)"
                + (minifying ? " and minified (\(names.minify))" : "") + " it is \(bytes) bytes and fits"
        }
        guard let minified else {
            return escapeSavings > 0 && size - escapeSavings <= limit
                ? plain(size - escapeSavings, false) : message + "; shorten it"
        }
        if minified <= limit, minified < size {
            return message + "; minified it is \(minified) bytes and fits: send it with \(names.minify)"
        }
        if escapeSavings > 0 && size - escapeSavings <= limit { return plain(size - escapeSavings, false) }
        if escapeSavings > 0 && minified - escapeSavings <= limit { return plain(minified - escapeSavings, true) }
        if minified >= size {
            return message + "; it is already compact: shorten it or move data out of the payload"
        }
        return message + "; even minified it is \(minified) bytes, \(minified - limit) over: shorten it"
    }

    /// What an app build given as the payload looks like (an `.ipa` is a zip archive; a provisioning profile is
    /// signed DER holding a property list); nil for anything else.
    static func buildSeen(in bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a zip archive (an .ipa?)" }
        guard bytes.count > 4, bytes[0] == 0x30 else { return nil }
        return bytes.prefix(64 * 1024).firstRange(of: Array("<plist".utf8)) != nil
            ? "a provisioning profile (signed DER)" : nil
    }

    /// What a credential given as the payload looks like (a common slip of argument order): PEM (`-----BEGIN
    /// PRIVATE KEY-----`, named by its label) or binary DER as in a `.p12` or `.cer` (a SEQUENCE with a long
    /// length); nil for anything else.
    static func credentialSeen(in bytes: [UInt8]) -> String? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x0A || bytes[start] == 0x0D { start += 1 }
        let marker = Array("-----BEGIN ".utf8)
        if bytes[start...].starts(with: marker) {
            let label = bytes[(start + marker.count)...].prefix(40).prefix {
                $0 != UInt8(ascii: "-") && $0 >= 0x20 && $0 < 0x7F
            }
            return "PEM (\(String(decoding: label, as: UTF8.self)))"
        }
        if bytes.count > 4, bytes[0] == 0x30, (0x81...0x84).contains(bytes[1]) {
            return "binary DER, as in a .p12 or .cer file"
        }
        return nil
    }
}
