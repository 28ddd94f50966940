/// What `JSONReader.parseCollapsingDuplicates` keeps of an object's members when checking: asked once for each
/// distinct key, it keeps a member whole, keeps it but filters its value again, lists it (its key and position,
/// for a message, while fewer than `listedLimit` were listed; the rest are only counted), or leaves it out. A
/// filter also says whether an array read under it keeps its elements.
public struct JSONMemberFilter {
    /// What becomes of one member.
    public enum Choice {
        /// Kept; its value, when a container, filtered by the given filter (nil: kept whole).
        case keep(JSONMemberFilter?)
        /// Kept with its value not kept (strings and numbers empty, containers empty), while fewer than
        /// `listedLimit` are; past that only counted, in the object's `JSONValue.unlistedMembers`.
        case listed
        /// Checked as JSON, not kept.
        case leaveOut
    }

    /// How many members of one object are `.listed` (CLI.md: the first 20 are listed, the rest counted).
    public static let listedLimit = 20

    /// Whether an array read under this filter keeps its elements (whole); else it is kept empty.
    public let keepsElements: Bool
    let choose: (String) -> Choice

    public init(keepsElements: Bool = false, _ choose: @escaping (String) -> Choice) {
        self.keepsElements = keepsElements
        self.choose = choose
    }

    /// Keeps the container itself (kind and position) and nothing inside it: for a value the rules only name.
    public static var nothingInside: JSONMemberFilter { JSONMemberFilter { _ in .leaveOut } }
}
