/// The duplicate keys of a document read with `JSONReader.parseCollapsingDuplicates`: the first `listedLimit`
/// in source order with their key paths and positions, and how many there were in all. Bounded, so a payload
/// made of a million copies of one key costs a few entries, not a million members and a million warnings.
public struct JSONDuplicateKeys: Sendable {
    /// One repeated key: its path (`aps.alert`, `x[0].k`), where the repeat and the first copy start.
    public struct Occurrence: Sendable {
        public let path: String
        public let key: String
        public let keyStart: Int
        public let firstKeyStart: Int
    }

    /// How many are kept with their positions (CLI.md: the first 20 are listed, the rest counted).
    public static let listedLimit = 20

    /// The first `listedLimit` repeats, in source order.
    public private(set) var listed: [Occurrence] = []
    /// Every repeat, listed or not.
    public private(set) var count = 0

    public init() {}

    /// Counts a repeat; `occurrence` is asked for only while fewer than `listedLimit` are listed.
    mutating func record(_ occurrence: () -> Occurrence) {
        count += 1
        if listed.count < Self.listedLimit { listed.append(occurrence()) }
    }
}
