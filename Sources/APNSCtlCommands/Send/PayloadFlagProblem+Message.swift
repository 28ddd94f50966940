import APNSCore

extension PayloadField {
    /// The `send` flag that sets it.
    var flag: String {
        switch self {
        case .liveActivity: return "--live-activity"
        case .contentState: return "--content-state"
        case .attributesType: return "--attributes-type"
        case .attributes: return "--attributes"
        case .title: return "--title"
        case .alert: return "--alert"
        case .sound: return "--sound"
        case .badge: return "--badge"
        case .staleDate: return "--stale-date"
        case .dismissalDate: return "--dismissal-date"
        case .relevanceScore: return "--relevance-score"
        case .inputPushToken: return "--input-push-token"
        case .inputPushChannel: return "--input-push-channel"
        case .timestamp: return "--timestamp"
        case .contentChanged: return "--content-changed"
        case .subtitle: return "--subtitle"
        case .category: return "--category"
        case .threadID: return "--thread-id"
        case .mutableContent: return "--mutable-content"
        case .contentAvailable: return "--content-available"
        }
    }

    /// Where a quick payload flag puts its value, for advice to write it into a payload file instead.
    var keyPath: String? {
        switch self {
        case .title: return "aps.alert.title"
        case .subtitle: return "aps.alert.subtitle"
        case .alert: return "aps.alert"
        case .badge: return "aps.badge"
        case .sound: return "aps.sound"
        case .category: return "aps.category"
        case .threadID: return "aps.thread-id"
        case .mutableContent: return "aps.mutable-content"
        case .contentAvailable: return "aps.content-available"
        case .relevanceScore: return "aps.relevance-score"
        default: return nil
        }
    }
}

extension PayloadFlagProblem {
    /// The usage error naming the flag, and what to give instead.
    var message: String {
        switch self {
        case .notWithContentChanged(let others):
            let names = others.map(\.flag)
            return
                "\(names.first ?? ""): --content-changed builds a widgets or controls push, whose aps holds only content-changed; "
                + "leave out \(names.joined(separator: ", "))"
        case .liveActivityOnly(let field):
            return "\(field.flag): only Live Activity pushes carry it; add --live-activity start, update or end "
                + "(or --push-type liveactivity), or leave it out"
        case .badgeOnLiveActivity:
            return "--badge: a Live Activity shows no badge; leave --badge out"
        case .notOnLiveActivity(let field):
            return "\(field.flag): Live Activity pushes do not carry it (their alert takes only --title, --alert and "
                + "--sound); leave \(field.flag) out, or send an ordinary notification without --live-activity"
        case .contentChangedIntoAnotherPush:
            return
                "--content-changed: it builds a widgets or controls push ({\"aps\":{\"content-changed\":true}}), but PAYLOAD was given too and its aps holds other keys; leave out PAYLOAD, or --content-changed"
        case .badBadge(let text) where !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            // A whole number past Int's range, as the validator says of it in a payload.
            return "--badge \(text): too large; use a count the app can show"
        case .badBadge(let text):
            return "--badge \(PrintableText.quoted(text)): must be a whole number, 0 or more (0 removes the badge)"
        case .notJSON(let field, let file, let error):
            return
                "\(Self.label(field, file: file)): line \(error.line), column \(error.column): not valid JSON: \(error.message)"
        case .notAnObject(let field, let file, let found):
            return "\(Self.label(field, file: file)): must be a JSON object such as {\"eta\":12}, found \(found)"
        case .wrappedObject(let field, let file, "aps"):
            return
                "\(Self.label(field, file: file)): a whole payload (it has \"aps\"), not the \(field.flag.dropFirst(2)) "
                + "object itself; give the object alone (such as {\"eta\":12}), or send the file as the PAYLOAD"
        case .wrappedObject(let field, let file, let key):
            return "\(Self.label(field, file: file)): the object is wrapped in \"\(key)\"; give what it holds (such as "
                + "{\"eta\":12}): apnsctl puts it under \"\(key)\" itself"
        case .badTime(let field, let problem):
            return "\(field.flag) \(problem.message)"
        case .badTimestamp(let text):
            return
                "--timestamp \(PrintableText.quoted(text)): give now (the default with --live-activity), a UNIX time in seconds, or an ISO 8601 date-time with Z or an offset, such as 2026-11-28T18:30:00Z"
        case .badRelevanceScore(let text):
            return "--relevance-score \(PrintableText.quoted(text)): not a number; give a number such as 0.5 "
                + "(alerts take 0 to 1; the Live Activity with the highest score gets the Dynamic Island)"
        }
    }

    /// A JSON value as messages name it: `--content-state`, or `--content-state @state.json`.
    private static func label(_ field: PayloadField, file: String?) -> String {
        file.map { "\(field.flag) @\($0)" } ?? field.flag
    }
}
