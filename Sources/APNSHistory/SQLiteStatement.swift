import CSQLite

/// One prepared statement (`sqlite3_stmt *`), finalized in `deinit`. Parameters are numbered from 1, columns
/// from 0, as in SQLite; every value is copied in and out, so no pointer outlives a call.
final class SQLiteStatement {
    private let handle: OpaquePointer
    /// Keeps the database open while the statement exists.
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64?) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    func bind(_ index: Int32, _ value: Int?) throws(SQLiteError) { try bind(index, value.map(Int64.init)) }

    func bind(_ index: Int32, _ value: Double?) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    func bind(_ index: Int32, _ value: String?) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        // The length is given, so a NUL inside the text is kept (and an empty string stays text, not NULL).
        let code = value.withCString { CSQLite_bind_text(handle, index, $0, Int32(value.utf8.count)) }
        try check(code)
    }

    func bind(_ index: Int32, bytes: [UInt8]) throws(SQLiteError) {
        let code = bytes.withUnsafeBytes { raw in
            // A zero-length blob is still a blob, not NULL: give SQLite a valid pointer.
            raw.baseAddress.map { CSQLite_bind_blob(handle, index, $0, Int32(raw.count)) }
                ?? sqlite3_bind_zeroblob(handle, index, 0)
        }
        try check(code)
    }

    /// Runs the statement to its next row: true when a row is there to read, false when it is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw connection.error(code)
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) { _ = try step() }

    /// Makes the statement ready to run again with new values.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func optionalInteger(_ column: Int32) -> Int64? { isNull(column) ? nil : integer(column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String? {
        // The pointer first, then its length (SQLite's order: asking for the text may convert the value).
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func bytes(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw connection.error(code) }
    }
}
