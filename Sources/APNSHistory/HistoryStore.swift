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
            // Missing, not unreadable: a folder above that cannot be searched is said, not taken for no history.
            if !create && FileSystem.entryKind(directory) == .none && !blockedByAFile(directory)
                && FileSystem.isMissing(directory)
            {
                return nil
            }
            folder = try create ? PrivateDirectory.openOrCreate(directory) : PrivateDirectory.open(directory)
        } catch {
            throw HistoryProblem(error)
        }
        // The history decides where a replay sends a credential: kept 0700 and 0600 (SQLite gives its log files
        // the database's mode), as the token cache is, whatever widened them. What its owner took away stays
        // away: a folder made read-only records nothing, as a read-only database does (root included).
        if create {
            let mode = folder.narrowMode(to: 0o700)
            if mode & 0o200 == 0 { throw .readOnlyFolder(path: directory, mode: mode) }
        }
        do {
            for name in [fileName, fileName + "-wal", fileName + "-shm"] { folder.restrict(name, to: 0o600) }
            // SQLite opens the database and its log files by path: no folder above may be another's to swap,
            // and a log that is a link or another's is named here, not left to SQLite's "unable to open".
            try folder.checkFoldersAbove()
            for log in [fileName + "-wal", fileName + "-shm"] { _ = try folder.checkFile(log, creatingWith: nil) }
            permissions = try folder.checkFile(fileName, creatingWith: create ? 0o600 : nil)
        } catch {
            throw HistoryProblem(error)
        }
        guard let permissions else { return nil }
        let path = folder.file(fileName)
        let readOnly = permissions & 0o200 == 0
        // SQLite makes its log files with the database's mode: one made while the database was read-only stays so
        // after `chmod u+w` undid it, and kept every later send from recording, with advice that no longer helped.
        if !readOnly { for log in [fileName + "-wal", fileName + "-shm"] { folder.allowOwnerWrite(log) } }
        let database: SQLiteConnection
        do {
            database = try SQLiteConnection.open(
                folder.fileWithoutLinks(fileName), readOnly: readOnly, busyMilliseconds: busyMilliseconds)
        } catch {
            throw HistoryProblem(error, path: path)
        }
        let store = HistoryStore(path: path, database: database)
        try store.prepare(readOnly: readOnly)
        return store
    }

    /// Whether a folder above `path` is a file (`XDG_STATE_HOME` naming one): nothing at `path` is then no empty
    /// history but a place no send can record in, said as such by opening it (ENOTDIR) rather than "nothing yet".
    private static func blockedByAFile(_ path: String) -> Bool {
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            folder = folder[..<slash]
            switch FileSystem.entryKind(String(folder)) {
            case .none: continue
            case .directory: return false
            case .symbolicLink: return !FileSystem.isDirectory(String(folder))
            case .other: return true
            }
        }
        return false
    }

    /// Brings the layout up to date (WAL mode first, which cannot change inside a transaction).
    private func prepare(readOnly: Bool) throws(HistoryProblem) {
        let version = try guarded { () throws(SQLiteError) in try database.integer("PRAGMA user_version") }
        if version > HistorySchema.current { throw .newerSchema(path: path, version: version) }
        // No apnsctl writes a version below 0 (it was taken as the step to start from, and crashed).
        if version < 0 { throw .corrupt(path: path) }
        // A database of another program's (a layout version of 0 with tables in it) is not one to add ours to, nor
        // to switch to WAL. Ours gets its tables and its version in one transaction: tables with version 0 after
        // them are never ours.
        let foreign = try guarded { () throws(SQLiteError) -> Bool in
            guard version == 0, try database.integer("SELECT count(*) FROM sqlite_master") > 0 else { return false }
            return try database.integer("PRAGMA user_version") == 0
        }
        if foreign { throw .corrupt(path: path) }
        if version > 0,
            try guarded({ () throws(SQLiteError) in try HistorySchema.holds(database, at: version) }) == false
        {
            throw .corrupt(path: path)
        }
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
                for step in Int(now)..<HistorySchema.steps.count {
                    try database.execute(HistorySchema.steps[step])
                    try HistorySchema.conversion(after: step, in: database)
                }
                try database.execute("PRAGMA user_version = \(HistorySchema.current)")
            }
        }
    }

    /// Runs `body` in one write transaction (taken at once, so two writers queue on the busy timeout instead
    /// of failing half-way), then empties the WAL once it holds `logPages`.
    private func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        if database.framesInLog >= Self.logPages { database.truncateLogIfIdle() }
    }

    /// The WAL outlives each send (see `SQLiteConnection.open`), and the next send's open reads all of it
    /// again. Emptied past 100 pages (400 KB), it costs each open little, and the copy's fsyncs come every 20 or
    /// so single sends (with the new log's on the send after) instead of on each. A large entry (a batch's
    /// results) empties it at once: a log left as large as a million devices' results slowed every later send.
    static let logPages = 100

    /// Maps SQLite's errors to the history's problems.
    private func guarded<T>(_ body: () throws(SQLiteError) -> T) throws(HistoryProblem) -> T {
        do { return try body() } catch { throw HistoryProblem(error, path: path) }
    }

    // MARK: - Writing

    /// Starts recording one entry whose results come one by one (`HistoryRecording`).
    public func beginRecording() throws(HistoryProblem) -> HistoryRecording {
        HistoryRecording(store: self)
    }

    /// The statement that sets a recording's full chunk aside (`?1` its number, `?2` its bytes), in a temporary
    /// table emptied first.
    func pendingChunkStatement() throws(SQLiteError) -> SQLiteStatement {
        // A small page cache: a send's memory stays what it was without the history. No rollback journal:
        // nothing here needs one (the table is scratch, emptied at the start), and one doubled its writes.
        try database.execute(
            """
            PRAGMA temp.cache_size = -64;
            PRAGMA temp.journal_mode = OFF;
            CREATE TEMP TABLE IF NOT EXISTS pending_chunks (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);
            DELETE FROM temp.pending_chunks;
            """)
        return try database.prepare("INSERT INTO temp.pending_chunks (chunk, data) VALUES (?1, ?2)")
    }

    /// Writes `entry` with the chunks set aside before (when `setAside`), then `chunks`, in one transaction with
    /// the retention: entries started more than `keepDays` days before `now` go, and all but the newest
    /// `keepEntries`.
    func finishRecording(
        _ entry: HistoryEntry, reasons: String, setAside: Bool, chunks: [(number: Int, bytes: [UInt8])],
        keepDays: Int, keepEntries: Int, now: Int64
    ) throws(HistoryProblem) -> Int64 {
        try guarded { () throws(SQLiteError) in
            var id: Int64 = 0
            // Pages a large entry fills stay in a 2 MB cache until the commit writes each once; in the small one
            // they were spilled to the WAL, read back and written again, twice the I/O of the entry.
            let large = setAside || chunks.reduce(0, { $0 + $1.bytes.count }) > Self.largeEntryBytes
            if large { try database.execute("PRAGMA cache_size = -2048") }
            try transaction { () throws(SQLiteError) in
                id = try insert(entry, reasons: reasons)
                if setAside {
                    let move = try database.prepare(
                        "INSERT INTO result_chunks (entry, chunk, data) SELECT ?1, chunk, data FROM temp.pending_chunks"
                    )
                    try move.bind(1, id)
                    try move.run()
                }
                let s = try database.prepare("INSERT INTO result_chunks (entry, chunk, data) VALUES (?1, ?2, ?3)")
                for chunk in chunks {
                    try s.bind(1, id)
                    try s.bind(2, chunk.number)
                    try s.bind(3, bytes: chunk.bytes)
                    try s.run()
                    s.reset()
                }
                try removeOld(before: Self.cutoff(keepDays: keepDays, now: now), keeping: keepEntries)
            }
            return id
        }
    }

    /// The start before which an entry is older than `keepDays` days: any count of days a setting takes, up to
    /// Int.max, keeps every entry rather than overflowing.
    static func cutoff(keepDays: Int, now: Int64) -> Int64 {
        let (span, tooLong) = Int64(keepDays).multipliedReportingOverflow(by: 86_400)
        let (cutoff, beforeAnyTime) = now.subtractingReportingOverflow(span)
        return tooLong || beforeAnyTime ? .min : cutoff
    }

    /// Results past this size make an entry large: its pages are written from the larger page cache.
    static let largeEntryBytes = 1 << 20

    /// Maps SQLite's errors to the history's problems (for `HistoryRecording`).
    func checked<T>(_ body: () throws(SQLiteError) -> T) throws(HistoryProblem) -> T { try guarded(body) }

    private func insert(_ e: HistoryEntry, reasons: String) throws(SQLiteError) -> Int64 {
        let s = try database.prepare(
            """
            INSERT INTO entries (started, duration_ms, kind, environment, endpoints, ca_file, topic, push_type,
                priority, expiration, collapse_id, credential, payload, interrupted, devices, accepted, rejected,
                failed, outcome, replay_of, reasons, apns_id, request_id, never_sent, without_result, push_type_given,
                skipped_lines)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22,
                ?23, ?24, ?25, ?26, ?27)
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
        try s.bind(14, e.interrupted ? (e.outputLost ? 2 : 1) : 0)
        try s.bind(15, e.counts.targets)
        try s.bind(16, e.counts.accepted)
        try s.bind(17, e.counts.rejected)
        try s.bind(18, e.counts.failed)
        try s.bind(19, e.counts.outcome)
        try s.bind(20, e.replayOf)
        try s.bind(21, reasons)
        try s.bind(22, e.apnsID)
        try s.bind(23, e.requestID)
        try s.bind(24, e.counts.neverSent)
        try s.bind(25, e.counts.withoutResult)
        try s.bind(26, e.pushTypeGiven.map { $0 ? 1 : 0 })
        try s.bind(27, e.counts.skippedLines)
        try s.run()
        return database.lastInsertedRow
    }

    /// Removes entries started before `cutoff`, and all but the newest `keeping`.
    private func removeOld(before cutoff: Int64, keeping: Int) throws(SQLiteError) {
        let doomed =
            "SELECT id FROM entries WHERE started < ?1 OR id <= (SELECT id FROM entries ORDER BY id DESC LIMIT 1 OFFSET ?2)"
        for sql in [
            "DELETE FROM result_chunks WHERE entry IN (\(doomed))", "DELETE FROM entries WHERE id IN (\(doomed))",
        ] {
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
                let results = try database.prepare("DELETE FROM result_chunks WHERE entry IN (\(doomed))")
                try results.bind(1, cutoff)
                try results.run()
                let entries = try database.prepare("DELETE FROM entries WHERE id IN (\(doomed))")
                try entries.bind(1, cutoff)
                try entries.run()
                removed = database.changes
            }
            // A clear is how a user frees the file's space: SQLite keeps freed pages for reuse, so the file is
            // rewritten without them, and the write-ahead log emptied. Another process reading the history at this
            // moment keeps the space for the next clear (its entries are gone either way).
            if removed > 0 {
                do {
                    try database.execute("VACUUM")
                    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                } catch {}
            }
            return removed
        }
    }

    // MARK: - Reading

    private static let entryColumns = """
        id, started, duration_ms, kind, environment, endpoints, ca_file, topic, push_type, priority, expiration,
        collapse_id, credential, payload, interrupted, devices, accepted, rejected, failed, outcome, replay_of,
        apns_id, request_id, never_sent, without_result, push_type_given, skipped_lines
        """

    /// The entries `query` picks, newest first, without their results. A device is looked for in each entry's
    /// packed results, newest entry first, until `limit` are found; with a reason, in the same result.
    public func entries(_ query: HistoryQuery) throws(HistoryProblem) -> [HistoryEntry] {
        try guarded { () throws(SQLiteError) in
            var sql = "SELECT \(Self.entryColumns) FROM entries e WHERE 1"
            if query.reason != nil { sql += " AND instr(lower(reasons), char(10) || lower(?2) || char(10)) > 0" }
            if query.since != nil { sql += " AND started >= ?3" }
            sql += " ORDER BY id DESC LIMIT ?4"
            let s = try database.prepare(sql)
            try s.bind(2, query.reason)
            try s.bind(3, query.since)
            try s.bind(4, query.device == nil ? query.limit ?? -1 : -1)
            var entries: [HistoryEntry] = []
            let chunks = try query.device.map { _ throws(SQLiteError) in try chunkStatement() }
            let match = query.device.map { HistoryQuery.DeviceMatch($0, namedTokens: query.namedTokens) }
            let reason = query.reason?.lowercased()
            while try s.step() {
                if let limit = query.limit, entries.count >= limit { break }
                let entry = try Self.entry(s)
                if let match, let chunks {
                    // With a reason too, one result must be the device's and have the reason: another device's
                    // Unregistered is no answer to "when was this one Unregistered".
                    let found = try results(of: entry.id, chunks, first: true) { r in
                        match.matches(target: r.target, name: r.deviceName)
                            && (reason == nil || r.reason?.lowercased() == reason)
                    }
                    if found.isEmpty { continue }
                }
                entries.append(entry)
            }
            return entries
        }
    }

    /// Entry `id` with every result (without any when `withResults` is false: `forEachResult` reads them one at
    /// a time), or nil when there is none.
    public func entry(_ id: Int64, withResults: Bool = true) throws(HistoryProblem) -> HistoryEntry? {
        try guarded { () throws(SQLiteError) in
            let s = try database.prepare("SELECT \(Self.entryColumns) FROM entries WHERE id = ?1")
            try s.bind(1, id)
            guard try s.step() else { return nil }
            var entry = try Self.entry(s)
            if withResults { entry.results = try results(of: id, try chunkStatement()) { _ in true } }
            return entry
        }
    }

    /// Each result of entry `id`, in the order they arrived, handed to `body` as its chunk is read: a batch of
    /// any size is shown in the memory of one chunk.
    public func forEachResult(of id: Int64, _ body: (HistoryResult) -> Void) throws(HistoryProblem) {
        try guarded { () throws(SQLiteError) in
            let chunks = try chunkStatement()
            defer { chunks.reset() }
            try chunks.bind(1, id)
            while try chunks.step() {
                var decoder = try ResultChunkDecoder(chunks.bytes(0))
                while let r = try decoder.next() { body(r) }
            }
        }
    }

    /// The statement that reads an entry's chunks in order (`?1` the entry).
    private func chunkStatement() throws(SQLiteError) -> SQLiteStatement {
        try database.prepare("SELECT data FROM result_chunks WHERE entry = ?1 ORDER BY chunk")
    }

    /// The results of entry `id` that `keep` picks; with `first`, only the first of them.
    private func results(
        of id: Int64, _ chunks: SQLiteStatement, first: Bool = false, _ keep: (HistoryResult) -> Bool
    ) throws(SQLiteError) -> [HistoryResult] {
        defer { chunks.reset() }
        try chunks.bind(1, id)
        var kept: [HistoryResult] = []
        while try chunks.step() {
            var decoder = try ResultChunkDecoder(chunks.bytes(0))
            while let r = try decoder.next() {
                guard keep(r) else { continue }
                kept.append(r)
                if first { return kept }
            }
        }
        return kept
    }

    /// The newest entry's number, nil when there is none.
    public func newestID() throws(HistoryProblem) -> Int64? {
        try guarded { () throws(SQLiteError) in
            let s = try database.prepare("SELECT max(id) FROM entries")
            return try s.step() ? s.optionalInteger(0) : nil
        }
    }

    /// The entry of the row `s` stands on; a value no send records (a duration that is no time) is a damaged
    /// database, said as one, not printed or computed with.
    private static func entry(_ s: SQLiteStatement) throws(SQLiteError) -> HistoryEntry {
        guard HistoryEntry.isPlausible(durationMs: s.double(2)), HistoryEntry.isPlausible(started: s.integer(1)) else {
            throw SQLiteError.damaged("entry #\(s.integer(0))")
        }
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
        e.outputLost = s.integer(14) == 2
        e.counts.targets = Int(s.integer(15))
        e.counts.accepted = Int(s.integer(16))
        e.counts.rejected = Int(s.integer(17))
        e.counts.failed = Int(s.integer(18))
        e.counts.outcome = s.text(19) ?? ""
        e.replayOf = s.optionalInteger(20)
        e.apnsID = s.text(21)
        e.requestID = s.text(22)
        e.counts.neverSent = Int(s.integer(23))
        e.counts.withoutResult = Int(s.integer(24))
        e.pushTypeGiven = s.optionalInteger(25).map { $0 != 0 }
        e.counts.skippedLines = Int(s.integer(26))
        return e
    }
}
