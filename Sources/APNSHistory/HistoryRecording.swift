/// One entry being recorded: results are packed as they arrive (`ResultPacking`); full chunks are held in
/// memory up to `heldLimit`, then set aside in a temporary table of SQLite's (its own file, never the history,
/// never locking it), so a batch of any size costs bounded memory. `finish` writes the entry and its chunks in
/// one transaction. Abandoned, nothing is written. Up to some 25,000 devices, nothing touches the database
/// before `finish`.
public final class HistoryRecording {
    private let store: HistoryStore
    private var packing = ResultPacking()
    /// The statement that sets a full chunk aside, prepared with its table on the first.
    private var setAside: SQLiteStatement?
    /// Full chunks not set aside (all of them until there are more than `heldLimit`).
    private var held: [(number: Int, bytes: [UInt8])] = []
    /// About 2 MB: a batch of up to some 25,000 devices never goes through the temporary table (a copy of
    /// every result written and read back), while a larger one's memory stays within its bound.
    static let heldLimit = 32

    init(store: HistoryStore) {
        self.store = store
    }

    /// Keeps one result, after those added before.
    public func add(_ r: HistoryResult) throws(HistoryProblem) {
        guard let chunk = packing.add(r) else { return }
        if setAside == nil && held.count < Self.heldLimit {
            held.append(chunk)
            return
        }
        try store.checked { () throws(SQLiteError) in
            let s: SQLiteStatement
            if let setAside {
                s = setAside
            } else {
                s = try store.pendingChunkStatement()
                setAside = s
            }
            for c in held + [chunk] {
                try s.bind(1, c.number)
                try s.bind(2, bytes: c.bytes)
                try s.run()
                s.reset()
            }
            held = []
        }
    }

    /// Writes `entry` (its own `results` are ignored: the added ones are its results), then removes entries
    /// started more than `keepDays` days before `now` and all but the newest `keepEntries`; returns its number.
    public func finish(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem)
        -> Int64
    {
        let chunks = held + (packing.rest().map { [$0] } ?? [])
        return try store.finishRecording(
            entry, reasons: packing.reasonsText, setAside: setAside != nil, chunks: chunks, keepDays: keepDays,
            keepEntries: keepEntries, now: now)
    }
}
