/// Which top-level members of a payload the rules read, for `JSONReader.parseCollapsingDuplicates`'s
/// `keepingRootMember`: `aps`, `mdm` and a `.apns` file's bundle key, and, for the hint when `aps` is missing,
/// the first key that looks like "aps" and the first that belongs inside `aps`, and the first key of the app's
/// own (that there is one tells a PushKit payload sent without its push type). Everything else is custom data
/// the app reads: it is checked as JSON (and for repeated keys) but not kept, so checking a payload of any size
/// costs about its own size in memory. Of `aps` only what `APSMembersRead` chooses is kept; of the others,
/// whose contents no rule reads, only their kind and position.
enum RootMembersRead {
    /// A fresh filter for one document (it remembers which hint keys it has already kept).
    static func filter() -> JSONMemberFilter {
        let keep = keptKeys()
        return JSONMemberFilter { key in
            key == "aps" ? .keep(APSMembersRead.aps) : keep(key) ? .keep(.nothingInside) : .leaveOut
        }
    }

    /// Whether a top-level `key` is kept (asked once per distinct key).
    static func keptKeys() -> (String) -> Bool {
        var keptLookalike = false
        var keptAPSKey = false
        var keptOwn = false
        return { key in
            if isApple(key) { return true }
            if looksLikeAPS(key) {
                defer { keptLookalike = true }
                return !keptLookalike
            }
            if APSKey(rawValue: key) != nil {
                defer { keptAPSKey = true }
                return !keptAPSKey
            }
            defer { keptOwn = true }
            return !keptOwn
        }
    }

    /// `aps`, `mdm` and a `.apns` file's bundle key: read by the rules, never the app's own.
    static func isApple(_ key: String) -> Bool {
        key == "aps" || key == "mdm" || key == Payload.simulatorTargetBundleKey
    }

    /// A key close to "aps" (`apps`, `APS`): a slip for it, not a key of the app's own.
    static func looksLikeAPS(_ key: String) -> Bool {
        key != "aps" && mayLookLikeAPS(key) && Suggestion.closest(to: key, among: ["aps"]) != nil
    }

    /// Whether a top-level `key` is one of the app's own: not Apple's, not a slip for "aps", not an aps key.
    static func isOwn(_ key: String) -> Bool { !isApple(key) && !looksLikeAPS(key) && APSKey(rawValue: key) == nil }

    /// False for keys `Suggestion` cannot find close to "aps", cheaply: an ASCII key is within one edit of it
    /// only at 4 bytes or fewer, and the same apart from case and separators only with 3 other bytes. Saves a
    /// payload of a million custom keys a million edit distances.
    static func mayLookLikeAPS(_ key: String) -> Bool {
        var bytes = 0
        var others = 0
        for b in key.utf8 {
            if b >= 0x80 { return true }
            bytes += 1
            if b != UInt8(ascii: "-") && b != UInt8(ascii: "_") && b != UInt8(ascii: " ") { others += 1 }
        }
        return bytes <= 4 || others == 3
    }
}
