/// One entry being recorded: results are added as they arrive and kept by SQLite (not in this process's
/// memory), then `finish` writes the entry and moves them in, in one transaction. Abandoned, nothing is written.
public final class HistoryRecording {
    private let store: HistoryStore
    private let insert: SQLiteStatement
    private var position: Int64 = 0

    init(store: HistoryStore, insert: SQLiteStatement) {
        self.store = store
        self.insert = insert
    }

    /// Keeps one result, after those added before.
    public func add(_ r: HistoryResult) throws(HistoryProblem) {
        try store.checked { () throws(SQLiteError) in
            let s = insert
            try s.bind(1, position)
            try s.bind(2, r.target)
            try s.bind(3, r.deviceName)
            try s.bind(4, r.status)
            try s.bind(5, r.reason)
            try s.bind(6, r.apnsID)
            try s.bind(7, r.apnsUniqueID)
            try s.bind(8, r.apnsRequestID)
            try s.bind(9, r.timestamp)
            try s.bind(10, r.durationMs)
            try s.bind(11, r.environment)
            try s.bind(12, r.endpoint)
            try s.bind(13, r.badDeviceTokenIn)
            if r.body.isEmpty { try s.bind(14, nil as Int64?) } else { try s.bind(14, bytes: r.body) }
            try s.bind(15, r.error)
            try s.bind(16, r.unknownOutcome ? 1 : 0)
            try s.run()
            s.reset()
            position += 1
        }
    }

    /// Writes `entry` (its own `results` are ignored: the added ones are its results) with the retention of
    /// `HistoryStore.record`; returns its number.
    public func finish(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem)
        -> Int64
    {
        try store.finishRecording(entry, keepDays: keepDays, keepEntries: keepEntries, now: now)
    }
}
