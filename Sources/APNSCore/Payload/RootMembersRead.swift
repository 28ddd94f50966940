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
            // The bundle key spelt otherwise too, for the warning that names it.
            if isApple(key) || PayloadChecker.isSimulatorTargetBundleKey(key) { return true }
            if looksLikeAPS(key) {
                defer { keptLookalike = true }
                return !keptLookalike
            }
            if APSKey.named(key) != nil {
                defer { keptAPSKey = true }
                return !keptAPSKey
            }
            defer { keptOwn = true }
            return !keptOwn
        }
    }

    /// `aps`, `mdm` and a `.apns` file's bundle key: read by the rules, never the app's own.
    static func isApple(_ key: String) -> Bool {
        // By length first: comparing a short key with the long bundle key is not the cheap small-string case.
        switch key.utf8.count {
        case 3: return key == "aps" || key == "mdm"
        case bundleKeyLength: return key == Payload.simulatorTargetBundleKey
        default: return false
        }
    }

    private static let bundleKeyLength = Payload.simulatorTargetBundleKey.utf8.count

    /// A key close to "aps" (`apps`, `APS`): a slip for it, not a key of the app's own.
    static func looksLikeAPS(_ key: String) -> Bool {
        key != "aps" && mayLookLikeAPS(key) && Suggestion.closest(to: key, among: ["aps"]) != nil
    }

    /// Whether a top-level `key` is one of the app's own: not Apple's, not a slip for "aps", not an aps key.
    static func isOwn(_ key: String) -> Bool { !isApple(key) && !looksLikeAPS(key) && APSKey.named(key) == nil }

    /// False for keys `Suggestion` cannot find close to "aps", cheaply: an ASCII key is within one edit of it
    /// only at 4 bytes or fewer, and a longer one only when it folds to "aps" (the same apart from case and
    /// separators). A payload of millions of custom keys is told apart at their first byte or so.
    static func mayLookLikeAPS(_ key: String) -> Bool {
        let utf8 = key.utf8
        if utf8.count <= 4 { return true }
        var letters = "aps".utf8.makeIterator()
        for b in utf8 {
            if b >= 0x80 { return true }
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: " ") { continue }
            let lower = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
            guard lower == letters.next() else { return false }
        }
        return letters.next() == nil
    }
}
