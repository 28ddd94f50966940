import APNSPlatform

/// The history database, `history.db` in a private folder: opened without following links, only when it is a
/// regular file we own, in WAL mode with a busy timeout, brought to the current layout on open. Holds no
/// credential: entries carry only what `HistoryEntry` has.
public final class HistoryStore {
    public static let fileName = "history.db"
    /// How long a writer waits for another apnsctl before giving up (CLI.md: locked longer than 2 s).
    static let busyMilliseconds: Int32 = 2000

    /// The database file's path.
    public let path: String
    let database: SQLiteConnection

    private init(path: String, database: SQLiteConnection) {
        self.path = path
        self.database = database
    }

    /// Opens the history in `directory`. With `create`, the folder (0700) and the file (0600) are made when
    /// missing; without it, a missing history is nil. A file whose owner cannot write it is opened read-only.
    public static func open(directory: String, create: Bool) throws(HistoryProblem) -> HistoryStore? {
        let folder: PrivateDirectory
        let permissions: FileMode?
        do {
            if !create && FileSystem.entryKind(directory) == .none { return nil }
            folder = try create ? PrivateDirectory.openOrCreate(directory) : PrivateDirectory.open(directory)
            permissions = try folder.checkFile(fileName, creatingWith: create ? 0o600 : nil)
        } catch {
            throw HistoryProblem(error)
        }
        guard let permissions else { return nil }
        let path = folder.file(fileName)
        let readOnly = permissions & 0o200 == 0
        let database: SQLiteConnection
        do {
            database = try SQLiteConnection.open(path, readOnly: readOnly, busyMilliseconds: busyMilliseconds)
        } catch {
            throw HistoryProblem(error, path: path)
        }
        let store = HistoryStore(path: path, database: database)
        try store.prepare(readOnly: readOnly)
        return store
    }

    /// Brings the layout up to date (WAL mode first, which cannot change inside a transaction).
    private func prepare(readOnly: Bool) throws(HistoryProblem) {
        let version = try guarded { () throws(SQLiteError) in try database.integer("PRAGMA user_version") }
        if version > HistorySchema.current { throw .newerSchema(path: path, version: version) }
        if version < HistorySchema.current && readOnly { throw .readOnly(path: path) }
        try guarded { () throws(SQLiteError) in
            if version == 0 {
                try database.executeWaitingWhileBusy("PRAGMA journal_mode=WAL", milliseconds: Self.busyMilliseconds)
            }
            // A small page cache: a send's memory stays what it was without the history (a batch's rows
            // stream through it).
            try database.execute("PRAGMA synchronous=NORMAL; PRAGMA cache_size = -64")
            guard version < HistorySchema.current else { return }
            try transaction { () throws(SQLiteError) in
                // Another apnsctl may have done it while this one waited for the lock.
                let now = try database.integer("PRAGMA user_version")
                guard now < HistorySchema.current else { return }
                for step in HistorySchema.steps[Int(now)...] { try database.execute(step) }
                try database.execute("PRAGMA user_version = \(HistorySchema.current)")
            }
        }
    }

    /// The layout version of the open database.
    public func schemaVersion() throws(HistoryProblem) -> Int64 {
        try guarded { () throws(SQLiteError) in try database.integer("PRAGMA user_version") }
    }

    /// Runs `body` in one write transaction (taken at once, so two writers queue on the busy timeout instead
    /// of failing half-way).
    private func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Maps SQLite's errors to the history's problems.
    private func guarded<T>(_ body: () throws(SQLiteError) -> T) throws(HistoryProblem) -> T {
        do { return try body() } catch { throw HistoryProblem(error, path: path) }
    }

    // MARK: - Writing

    /// Records `entry` and its results in one transaction, then removes entries started more than `keepDays`
    /// days before `now` and all but the newest `keepEntries`. Returns the new entry's number.
    @discardableResult
    public func record(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem)
        -> Int64
    {
        let recording = try beginRecording()
        for result in entry.results { try recording.add(result) }
        return try recording.finish(entry, keepDays: keepDays, keepEntries: keepEntries, now: now)
    }

    /// A result's columns, in the order `HistoryRecording` binds them.
    static let resultColumns = """
        target, device_name, status, reason, apns_id, apns_unique_id, apns_request_id, timestamp, duration_ms,
        environment, endpoint, bad_device_token_in, body, error, unknown_outcome
        """

    /// Starts recording one entry whose results come one by one (`HistoryRecording`).
    public func beginRecording() throws(HistoryProblem) -> HistoryRecording {
        try guarded { () throws(SQLiteError) in
            // SQLite keeps temporary tables in a file of their own (never in the history, never locking it), so
            // a batch of any size costs bounded memory until it is moved in.
            try database.execute(
                """
                PRAGMA temp.cache_size = -64;
                CREATE TEMP TABLE IF NOT EXISTS pending (
                    position INTEGER PRIMARY KEY, target TEXT NOT NULL, device_name TEXT, status INTEGER, reason TEXT,
                    apns_id TEXT, apns_unique_id TEXT, apns_request_id TEXT, timestamp INTEGER,
                    duration_ms REAL NOT NULL, environment TEXT, endpoint TEXT, bad_device_token_in TEXT, body BLOB,
                    error TEXT, unknown_outcome INTEGER NOT NULL);
                DELETE FROM temp.pending;
                BEGIN;
                """)
            let insert = try database.prepare(
                """
                INSERT INTO temp.pending (position, \(Self.resultColumns))
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                """)
            return HistoryRecording(store: self, insert: insert)
        }
    }

    /// Moves the pending results in with `entry`, in one transaction with the retention (see `record`).
    func finishRecording(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem)
        -> Int64
    {
        try guarded { () throws(SQLiteError) in
            try database.execute("COMMIT")
            var id: Int64 = 0
            try transaction { () throws(SQLiteError) in
                id = try insert(entry)
                let move = try database.prepare(
                    "INSERT INTO results (entry, position, \(Self.resultColumns)) SELECT ?1, position, \(Self.resultColumns) FROM temp.pending"
                )
                try move.bind(1, id)
                try move.run()
                try removeOld(before: now - Int64(keepDays) * 86_400, keeping: keepEntries)
            }
            try database.execute("DELETE FROM temp.pending")
            return id
        }
    }

    /// Maps SQLite's errors to the history's problems (for `HistoryRecording`).
    func checked<T>(_ body: () throws(SQLiteError) -> T) throws(HistoryProblem) -> T { try guarded(body) }

    private func insert(_ e: HistoryEntry) throws(SQLiteError) -> Int64 {
        let s = try database.prepare(
            """
            INSERT INTO entries (started, duration_ms, kind, environment, endpoints, ca_file, topic, push_type,
                priority, expiration, collapse_id, credential, payload, interrupted, devices, accepted, rejected,
                failed, outcome, replay_of)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
            """)
        try s.bind(1, e.started)
        try s.bind(2, e.durationMs)
        try s.bind(3, e.kind.rawValue)
        try s.bind(4, e.environment)
        try s.bind(5, e.endpoints.joined(separator: "\n"))
        try s.bind(6, e.caFile)
        try s.bind(7, e.topic)
        try s.bind(8, e.pushType)
        try s.bind(9, e.priority)
        try s.bind(10, e.expiration)
        try s.bind(11, e.collapseID)
        try s.bind(12, e.credential)
        try s.bind(13, bytes: e.payload)
        try s.bind(14, e.interrupted ? 1 : 0)
        try s.bind(15, e.counts.targets)
        try s.bind(16, e.counts.accepted)
        try s.bind(17, e.counts.rejected)
        try s.bind(18, e.counts.failed)
        try s.bind(19, e.counts.outcome)
        try s.bind(20, e.replayOf)
        try s.run()
        return database.lastInsertedRow
    }

    /// Removes entries started before `cutoff`, and all but the newest `keeping`.
    private func removeOld(before cutoff: Int64, keeping: Int) throws(SQLiteError) {
        let doomed =
            "SELECT id FROM entries WHERE started < ?1 OR id <= (SELECT id FROM entries ORDER BY id DESC LIMIT 1 OFFSET ?2)"
        for sql in ["DELETE FROM results WHERE entry IN (\(doomed))", "DELETE FROM entries WHERE id IN (\(doomed))"] {
            let s = try database.prepare(sql)
            try s.bind(1, cutoff)
            try s.bind(2, max(0, keeping))
            try s.run()
        }
    }

    /// Removes every entry started before `before` (UNIX seconds), or every entry; returns how many went.
    public func clear(before: Int64?) throws(HistoryProblem) -> Int {
        try guarded { () throws(SQLiteError) in
            var removed = 0
            try transaction { () throws(SQLiteError) in
                let doomed = "SELECT id FROM entries WHERE started < ?1"
                let cutoff = before ?? Int64.max
                let results = try database.prepare("DELETE FROM results WHERE entry IN (\(doomed))")
                try results.bind(1, cutoff)
                try results.run()
                let entries = try database.prepare("DELETE FROM entries WHERE id IN (\(doomed))")
                try entries.bind(1, cutoff)
                try entries.run()
                removed = database.changes
            }
            return removed
        }
    }

    // MARK: - Reading

    private static let entryColumns = """
        id, started, duration_ms, kind, environment, endpoints, ca_file, topic, push_type, priority, expiration,
        collapse_id, credential, payload, interrupted, devices, accepted, rejected, failed, outcome, replay_of
        """

    /// The entries `query` picks, newest first, without their results.
    public func entries(_ query: HistoryQuery) throws(HistoryProblem) -> [HistoryEntry] {
        try guarded { () throws(SQLiteError) in
            var sql = "SELECT \(Self.entryColumns) FROM entries e WHERE 1"
            if query.device != nil {
                sql +=
                    " AND EXISTS (SELECT 1 FROM results r WHERE r.entry = e.id AND (r.target = ?1 COLLATE NOCASE OR r.device_name = ?1))"
            }
            if query.reason != nil {
                sql += " AND EXISTS (SELECT 1 FROM results r WHERE r.entry = e.id AND r.reason = ?2 COLLATE NOCASE)"
            }
            if query.since != nil { sql += " AND started >= ?3" }
            sql += " ORDER BY id DESC LIMIT ?4"
            let s = try database.prepare(sql)
            try s.bind(1, query.device)
            try s.bind(2, query.reason)
            try s.bind(3, query.since)
            try s.bind(4, query.limit ?? -1)
            var entries: [HistoryEntry] = []
            while try s.step() { entries.append(Self.entry(s)) }
            return entries
        }
    }

    /// Entry `id` with every result, or nil when there is none.
    public func entry(_ id: Int64) throws(HistoryProblem) -> HistoryEntry? {
        try guarded { () throws(SQLiteError) in
            let s = try database.prepare("SELECT \(Self.entryColumns) FROM entries WHERE id = ?1")
            try s.bind(1, id)
            guard try s.step() else { return nil }
            var entry = Self.entry(s)
            let r = try database.prepare(
                """
                SELECT target, device_name, status, reason, apns_id, apns_unique_id, apns_request_id, timestamp,
                    duration_ms, environment, endpoint, bad_device_token_in, body, error, unknown_outcome
                FROM results WHERE entry = ?1 ORDER BY position
                """)
            try r.bind(1, id)
            while try r.step() {
                var result = HistoryResult(target: r.text(0) ?? "", durationMs: r.double(8))
                result.deviceName = r.text(1)
                result.status = r.optionalInteger(2).map { Int($0) }
                result.reason = r.text(3)
                result.apnsID = r.text(4)
                result.apnsUniqueID = r.text(5)
                result.apnsRequestID = r.text(6)
                result.timestamp = r.optionalInteger(7)
                result.environment = r.text(9)
                result.endpoint = r.text(10)
                result.badDeviceTokenIn = r.text(11)
                result.body = r.bytes(12)
                result.error = r.text(13)
                result.unknownOutcome = r.integer(14) != 0
                entry.results.append(result)
            }
            return entry
        }
    }

    /// The newest entry's number, nil when there is none.
    public func newestID() throws(HistoryProblem) -> Int64? {
        try guarded { () throws(SQLiteError) in
            let s = try database.prepare("SELECT max(id) FROM entries")
            return try s.step() ? s.optionalInteger(0) : nil
        }
    }

    private static func entry(_ s: SQLiteStatement) -> HistoryEntry {
        var e = HistoryEntry(
            started: s.integer(1), durationMs: s.double(2),
            kind: HistoryEntry.Kind(rawValue: s.text(3) ?? "") ?? .devices,
            environment: s.text(4) ?? "", endpoints: (s.text(5) ?? "").split(separator: "\n").map(String.init),
            credential: s.text(12) ?? "", payload: s.bytes(13), results: [])
        e.id = s.integer(0)
        e.caFile = s.text(6)
        e.topic = s.text(7)
        e.pushType = s.text(8)
        e.priority = s.optionalInteger(9).map { Int($0) }
        e.expiration = s.text(10)
        e.collapseID = s.text(11)
        e.interrupted = s.integer(14) != 0
        e.counts.targets = Int(s.integer(15))
        e.counts.accepted = Int(s.integer(16))
        e.counts.rejected = Int(s.integer(17))
        e.counts.failed = Int(s.integer(18))
        e.counts.outcome = s.text(19) ?? ""
        e.replayOf = s.optionalInteger(20)
        return e
    }
}
