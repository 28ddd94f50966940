/// What the rules read of `aps` (for `JSONReader.parseCollapsingDuplicates`): each known key, with of `alert`,
/// its localized texts and `sound` again only their known keys, and the values that are type-checked only as a
/// kind and a position (arrays of strings too: their elements are checked in the source, not kept). Unknown keys
/// are listed, the first 20 of each object with their names and positions (the warnings name them) and the rest
/// counted, so an `aps` of millions of keys, or an `alert` holding a huge
/// object, is checked without a tree of it.
enum APSMembersRead {
    /// Members of `aps`.
    static var aps: JSONMemberFilter {
        JSONMemberFilter { key in
            switch APSKey.named(key) {
            case .alert?: return .keep(alert)
            case .sound?: return .keep(sound)
            // The app's data: its rule walks it in the source (`JSONNumberScan`).
            case .contentState?: return .keep(.nothingInside)
            case nil: return .listed
            case _?: return .keep(.nothingInside)
            }
        }
    }

    /// Members of `aps.alert`.
    static var alert: JSONMemberFilter {
        JSONMemberFilter { key in
            switch key {
            case "title", "subtitle", "body": return .keep(localizedText)
            case _ where PayloadChecker.knownAlertKeys.contains(key): return .keep(.nothingInside)
            default: return .listed
            }
        }
    }

    /// Members of a Live Activity's localized `title`, `subtitle` or `body`.
    static var localizedText: JSONMemberFilter {
        JSONMemberFilter { key in
            switch key {
            case "loc-key", "loc-args": return .keep(.nothingInside)
            default: return .listed
            }
        }
    }

    /// Members of a critical-alert `aps.sound`.
    static var sound: JSONMemberFilter {
        JSONMemberFilter { APSKey.soundKeys.contains($0) ? .keep(.nothingInside) : .listed }
    }
}
