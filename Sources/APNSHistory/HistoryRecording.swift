/// One entry being recorded: results are packed as they arrive (`ResultPacking`); a full chunk is set aside in
/// a temporary table of SQLite's (its own file, never the history, never locking it), so a batch of any size
/// costs bounded memory. `finish` writes the entry and its chunks in one transaction. Abandoned, nothing is
/// written. A send of one device never touches the database before `finish`.
public final class HistoryRecording {
    private let store: HistoryStore
    private var packing = ResultPacking()
    /// The statement that sets a full chunk aside, prepared with its table on the first.
    private var setAside: SQLiteStatement?

    init(store: HistoryStore) {
        self.store = store
    }

    /// Keeps one result, after those added before.
    public func add(_ r: HistoryResult) throws(HistoryProblem) {
        guard let chunk = packing.add(r) else { return }
        try store.checked { () throws(SQLiteError) in
            let s: SQLiteStatement
            if let setAside {
                s = setAside
            } else {
                s = try store.pendingChunkStatement()
                setAside = s
            }
            try s.bind(1, chunk.number)
            try s.bind(2, bytes: chunk.bytes)
            try s.run()
            s.reset()
        }
    }

    /// Writes `entry` (its own `results` are ignored: the added ones are its results) with the retention of
    /// `HistoryStore.record`; returns its number.
    public func finish(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem)
        -> Int64
    {
        let setAsideChunks = packing.chunks
        let last = packing.rest()
        return try store.finishRecording(
            entry, reasons: packing.reasonsText, setAside: setAsideChunks, last: last, keepDays: keepDays,
            keepEntries: keepEntries, now: now)
    }
}
