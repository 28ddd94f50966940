import CSQLite

/// One open SQLite database (`sqlite3 *`), closed in `deinit`. The only owner of the handle; statements
/// prepared on it keep the connection alive while they exist.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private let busyMilliseconds: Int32
    /// Where SQLite's WAL hook leaves the log's length in frames after each commit on this connection.
    private let logFrames: UnsafeMutablePointer<Int32>

    private init(handle: OpaquePointer, busyMilliseconds: Int32) {
        self.handle = handle
        self.busyMilliseconds = busyMilliseconds
        logFrames = .allocate(capacity: 1)
        logFrames.initialize(to: 0)
        // Replaces SQLite's automatic checkpoint, which is a hook too (see `truncateLogIfIdle`).
        sqlite3_wal_hook(
            handle,
            { frames, _, _, count in
                frames?.assumingMemoryBound(to: Int32.self).pointee = count
                return SQLITE_OK
            }, logFrames)
    }

    deinit {
        sqlite3_wal_hook(handle, nil, nil)
        sqlite3_close_v2(handle)
        logFrames.deallocate()
    }

    /// Opens (creating when missing) the database file at `path`, never through a symbolic link, with a busy
    /// timeout of `busyMilliseconds`: a writer waits that long for another before giving up.
    /// `readOnly` opens it for reading only.
    static func open(_ path: String, readOnly: Bool, busyMilliseconds: Int32) throws(SQLiteError) -> SQLiteConnection {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw SQLiteError(code: code, message: "out of memory") }
        let connection = SQLiteConnection(handle: handle, busyMilliseconds: busyMilliseconds)
        if code != SQLITE_OK { throw connection.error(code) }
        sqlite3_extended_result_codes(handle, 1)
        _ = CSQLite_disable_lookaside(handle)
        _ = CSQLite_keep_wal_on_close(handle)
        sqlite3_busy_timeout(handle, busyMilliseconds)
        return connection
    }

    /// The WAL's length in frames (pages) after this connection's last commit; 0 before its first.
    var framesInLog: Int { Int(logFrames.pointee) }

    /// Copies the WAL into the database and cuts it to nothing, unless another connection is reading or writing
    /// it: then it is left for a later commit, without waiting (a `history` piped into a pager holds its read).
    ///
    /// Why not SQLite's automatic checkpoint: it copies the log in but leaves it to the next write on the same
    /// shared index to start the log over. Each apnsctl writes once and leaves the log behind, and the next one
    /// rebuilds the index from the file, knowing nothing of what was copied: the log was never started over.
    /// It grew by each send's pages, and every send read all of it and copied its pages in again.
    func truncateLogIfIdle() {
        sqlite3_busy_timeout(handle, 0)
        let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        sqlite3_busy_timeout(handle, busyMilliseconds)
        if code == SQLITE_OK { logFrames.pointee = 0 }
    }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code != SQLITE_OK { throw error(code) }
    }

    /// Runs `sql` as `execute` does, trying again for up to `milliseconds` while the database is busy. For a
    /// statement SQLite refuses at once instead of waiting on the busy timeout (switching a new file to WAL while
    /// another connection does the same: waiting could deadlock, so one of them is refused).
    func executeWaitingWhileBusy(_ sql: String, milliseconds: Int32) throws(SQLiteError) {
        var waited: Int32 = 0
        while true {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            if code == SQLITE_OK { return }
            let failure = error(code)
            guard failure.isBusy, waited < milliseconds else { throw failure }
            waited += sqlite3_sleep(20)
        }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The first column of the first row of `sql`, as an integer (0 without a row).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(0) : 0
    }

    /// The row id of the last insert on this connection.
    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// `code` with the connection's message.
    func error(_ code: Int32) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let text = sqlite3_errmsg(handle).map { String(cString: $0) } ?? "SQLite error \(code)"
        return SQLiteError(code: extended != 0 ? extended : code, message: text)
    }
}
