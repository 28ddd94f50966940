/// Runs the payload rules of APNS.md §4 over one parsed payload judged as one push type,
/// collecting problems by byte offset. The rules themselves live in the `PayloadChecker+…` files.
struct PayloadChecker {
    let pushType: PushType
    let source: [UInt8]
    /// How advice names the settings to change.
    let names: SettingNames
    /// UNIX seconds now, for the rules about a timestamp's distance from it; nil skips them.
    var now: Int64? = nil
    /// The payload is about to be sent: timestamps that would block later updates are errors.
    var sending = false
    var found = ProblemCollector()
    /// Whether the top level holds keys of the app's own, as a VoIP payload does (`RootMembersRead.isOwn`).
    var hasOwnKeys = false
    /// The topic that will be sent, when the caller knows it (`send`): a `.apns` file's bundle it does not start
    /// with is no topic at all (`--topic` given), and a template's placeholder there is only a warning.
    var topic: String? = nil

    /// A checker for one payload `source` judged as `pushType`, naming settings with `names`.
    init(pushType: PushType, source: [UInt8], names: SettingNames = .headers) {
        self.pushType = pushType
        self.source = source
        self.names = names
    }

    /// Records an error at byte `offset` of the source.
    mutating func error(_ path: String, at offset: Int, _ message: String, flag: String? = nil) {
        found.error(path, at: offset, message, flag: flag)
    }
    /// Records a warning at byte `offset` of the source.
    mutating func warning(_ path: String, at offset: Int, _ message: String, flag: String? = nil) {
        found.warning(path, at: offset, message, flag: flag)
    }

    /// Checks a payload whose top level is an object. `isAPNSFile` leaves out `Simulator Target Bundle`.
    mutating func checkDocument(_ root: JSONValue, members allMembers: [JSONMember], isAPNSFile: Bool) {
        var members = allMembers
        if isAPNSFile {
            checkSimulatorTargetBundle(root, members: allMembers)
            members = allMembers.filter { !$0.key.utf8.elementsEqual(Payload.simulatorTargetBundleKey.utf8) }
        } else if let bundle = allMembers.last(where: { Self.isSimulatorTargetBundleKey($0.key) }) {
            // Only a `.apns` file's bundle is read and left out: anywhere else the key goes to the device as data.
            warning(
                bundle.key, at: bundle.keyStart,
                "\(JSONWriter.quoted(bundle.key)) is read only from a .apns file (Xcode's simulator format); here it is sent to the device as custom data: name the file .apns, or remove the key"
            )
        }
        let effective = JSONValue.effectiveMembers(members)
        hasOwnKeys = effective.contains { RootMembersRead.isOwn($0.key) }
        if pushType == .mdm { checkMDM(root, members: effective) }
        guard let apsMember = effective.last(where: { $0.key == "aps" }) else {
            reportMissingAPS(root, members: effective)
            return
        }
        let aps = apsMember.value
        guard let apsMembers = aps.members else {
            error(
                "aps", at: aps.start,
                "aps must be an object holding Apple's keys, found \(aps.summary); write \"aps\": {\"alert\": \"Hello\"}"
            )
            return
        }
        if pushType == .mdm {
            warning("aps", at: apsMember.keyStart, "mdm pushes carry no aps; the device ignores it: remove it")
            return
        }
        // Only the keys iOS acts on from aps alone, and only when aps lacks them: an app's own top-level key may
        // share another aps key's name (event, category), and the app receives every top-level key. PushKit
        // hands the whole payload to the app.
        if pushType != .voip && pushType != .pushtotalk,
            let misplaced = effective.first(where: { member in
                Self.actedOnInAPSOnly.contains(member.key) && !apsMembers.contains { $0.key == member.key }
            })
        {
            warning(
                misplaced.key, at: misplaced.keyStart,
                "\(misplaced.key) is outside aps, where iOS does not act on it (the app only receives it as its own key); if it is meant for iOS, move it into aps"
            )
        }
        checkAPS(aps, members: JSONValue.effectiveMembers(apsMembers))
    }

    /// The aps keys iOS acts on itself (shows, plays, wakes the app for), which mean nothing outside aps.
    static let actedOnInAPSOnly: Set<String> = ["alert", "badge", "sound", "content-available", "mutable-content"]

    /// `aps` is absent: an error except for mdm (expected) and the types whose payload is the app's own (APNS.md §3,
    /// "app-defined": PushKit's VoIP, push-to-talk, complication and File Provider pushes, and location queries).
    private mutating func reportMissingAPS(_ root: JSONValue, members: [JSONMember]) {
        switch pushType {
        case .mdm:
            return
        case .voip, .pushtotalk, .complication, .fileprovider, .location:
            let receiver =
                pushType == .location
                ? "the app's location push service extension gets the whole payload, so this is fine if it reads its own keys"
                : "PushKit hands the whole payload to the app or its extension, so this is fine if it reads its own keys"
            warning("aps", at: root.start, "no aps dictionary; \(receiver), else add \"aps\": {}")
        default:
            var hint = "; put Apple's keys in an \"aps\" object: {\"aps\":{\"alert\":\"Hello\"}}"
            if let near = members.first(where: { Suggestion.closest(to: $0.key, among: ["aps"]) != nil }) {
                hint = "; did you mean \"aps\" instead of \(JSONWriter.quoted(near.key))?"
            } else if let misplaced = members.first(where: { APSKey(rawValue: $0.key) != nil }) {
                hint =
                    "; \(JSONWriter.quoted(misplaced.key)) belongs inside aps: {\"aps\":{\(JSONWriter.quoted(misplaced.key)):…}}"
            } else if hasOwnKeys {
                hint +=
                    "; or, for a payload of the app's own keys alone, give \(names.pushType) with its type (voip, pushtotalk, complication, fileprovider or location)"
            }
            error("aps", at: root.start, "aps is missing, so APNs has nothing to show or deliver\(hint)")
        }
    }

    /// mdm pushes are `{"mdm":"<PushMagic>"}`.
    private mutating func checkMDM(_ root: JSONValue, members: [JSONMember]) {
        guard let magic = members.last(where: { $0.key == "mdm" }) else {
            error(
                "mdm", at: root.start,
                "mdm pushes need \"mdm\": \"<PushMagic>\", the token from the device's MDM check-in; add it")
            return
        }
        if magic.value.string == nil {
            error(
                "mdm", at: magic.value.start,
                "mdm must be the PushMagic string from the device's check-in, found \(magic.value.summary)")
        } else if magic.value.string?.allSatisfy({ $0 == " " || $0 == "\t" }) == true {
            // No device's check-in gives an empty PushMagic: the device would not match the push to its server.
            error(
                "mdm", at: magic.value.start,
                "mdm is empty; it must be the PushMagic string from the device's check-in")
        }
    }

    /// A `.apns` file names the simulator's target app; without it only `xcrun simctl push BUNDLE` can deliver it.
    private mutating func checkSimulatorTargetBundle(_ root: JSONValue, members: [JSONMember]) {
        let key = Payload.simulatorTargetBundleKey
        guard let bundle = members.last(where: { $0.key.utf8.elementsEqual(key.utf8) }) else {
            // Xcode reads the key as spelt: a near spelling names no app, and goes to the device as data.
            if let near = members.last(where: { Self.isSimulatorTargetBundleKey($0.key) }) {
                warning(
                    near.key, at: near.keyStart,
                    "\(JSONWriter.quoted(near.key)) is not \(JSONWriter.quoted(key)): the simulator reads the key as spelt, so it cannot tell which app gets this push (and the key is sent as custom data): write \(JSONWriter.quoted(key))"
                )
                return
            }
            warning(
                ValidationProblem.rootPath, at: root.start,
                "no \"\(key)\" key; the simulator cannot tell which app gets this push: add the app's bundle id (send then needs \(names.topic))"
            )
            return
        }
        if bundle.value.string?.isEmpty ?? true {
            warning(
                key, at: bundle.value.start,
                "\(key) must be the app's bundle id such as \"com.example.demo\", found \(bundle.value.summary)")
        } else if let id = bundle.value.string, let problem = HeaderValueRule.problem(in: id) {
            // It is send's default apns-topic: held to the rule a --topic is (a shared file is untrusted input).
            error(
                key, at: bundle.value.start,
                "\(key) is the apns-topic send uses, and it \(problem); \(HeaderValueRule.advice)")
        } else if let id = bundle.value.string, let shape = BundleIDShape.problem(in: id) {
            // The rule a --topic is held to, said at the file's own key (send refused it as a topic, with no position).
            let what =
                switch shape {
                case .quotes: "holds quotes"
                case .emptyPart: "has an empty part (a dot at its start or end, or two in a row)"
                case .character(let c): "holds \(BundleIDShape.describe(c))"
                }
            // A template's placeholder (`<YOUR_BUNDLE_ID>`, `$(PRODUCT_BUNDLE_IDENTIFIER)`) beside a --topic that
            // replaces it: not sent, so not the push's fault.
            if let topic, !topic.hasPrefix(id) {
                warning(
                    key, at: bundle.value.start,
                    "\(key) \(what), which no bundle id has; it is not sent (the topic is \(topic)), but the simulator cannot use it"
                )
                return
            }
            error(
                key, at: bundle.value.start,
                "\(key) is the apns-topic send uses, and it \(what), which no bundle id has; a bundle id is made of \(BundleIDShape.allowed)"
            )
        }
    }

    /// `Simulator Target Bundle` in any letter case, with or without its blanks (a stray one too, `_` or `-` for
    /// them). Told apart by length and first letter first: it is asked of every distinct top-level key.
    static func isSimulatorTargetBundleKey(_ key: String) -> Bool {
        guard (21...32).contains(key.utf8.count),
            let first = key.utf8.first(where: { $0 != UInt8(ascii: " ") }), first | 0x20 == UInt8(ascii: "s")
        else { return false }
        return key.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" } == "simulatortargetbundle"
    }

    /// Duplicate keys anywhere (custom data included): parsers disagree on which copy wins. The reader met them
    /// (`JSONReader.parseCollapsingDuplicates`); the first 20 are listed, the rest counted in one more line.
    mutating func reportDuplicates(_ duplicates: JSONDuplicateKeys) {
        let firsts = LineTable.positions(of: duplicates.listed.map(\.firstKeyStart), in: source)
        for (occurrence, first) in zip(duplicates.listed, firsts) {
            warning(
                occurrence.path, at: occurrence.keyStart,
                "duplicate key \(JSONWriter.quoted(occurrence.key)) (first at line \(first.line), column \(first.column)); JSON parsers disagree on which copy wins: keep one"
            )
        }
        let unlisted = duplicates.count - duplicates.listed.count
        if unlisted > 0, let last = duplicates.listed.last {
            warning(
                ValidationProblem.rootPath, at: last.keyStart,
                "\(unlisted) more duplicate key\(unlisted == 1 ? "" : "s") not listed (\(duplicates.count) in all); JSON parsers disagree on which copy wins: keep one of each"
            )
        }
    }
}
