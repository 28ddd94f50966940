/// One entry's results being packed (`ResultChunkEncoder`) into chunks of about `chunkBytes`, with the reasons
/// they hold: a full chunk is handed out to be stored as soon as it is full, so a batch of any size costs one
/// chunk of memory.
struct ResultPacking {
    /// About the size of a chunk: large enough that a batch is a few rows, small enough to keep in memory.
    static let chunkBytes = 64 * 1024

    private var encoder = ResultChunkEncoder()
    /// The distinct reasons, in the order they first came.
    private(set) var reasons: [String] = []
    /// How many chunks were handed out.
    private(set) var chunks = 0

    /// Adds `r`; returns a chunk (its number and bytes) to store when this one filled it.
    mutating func add(_ r: HistoryResult) -> (number: Int, bytes: [UInt8])? {
        encoder.append(r)
        if let reason = r.reason, !reason.contains("\n"), !reasons.contains(reason) { reasons.append(reason) }
        return encoder.bytes.count >= Self.chunkBytes ? take() : nil
    }

    /// The last chunk, when results were added since the last one handed out.
    mutating func rest() -> (number: Int, bytes: [UInt8])? { encoder.isEmpty ? nil : take() }

    /// The reasons as the entry keeps them: one per line, each between newlines (`\nUnregistered\n`); empty
    /// without any.
    var reasonsText: String { reasons.isEmpty ? "" : "\n" + reasons.joined(separator: "\n") + "\n" }

    private mutating func take() -> (number: Int, bytes: [UInt8]) {
        defer {
            encoder.reset()
            chunks += 1
        }
        return (chunks, encoder.bytes)
    }
}
