import CSQLite

/// What SQLite said when a call failed: its primary result code and its message.
struct SQLiteError: Error, Sendable {
    let code: Int32
    let message: String

    /// The extended code's primary part (`SQLITE_IOERR_WRITE` is `SQLITE_IOERR`).
    var primary: Int32 { code & 0xff }

    /// Stored data that no history writes, found on reading it: a damaged database, as SQLite says its own.
    static func damaged(_ what: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: "\(what) is damaged")
    }

    var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    /// A damaged file (a layout that is not the history's is found when it is opened: `HistorySchema.holds`).
    var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    var isReadOnly: Bool { primary == SQLITE_READONLY || primary == SQLITE_PERM }
    var isFull: Bool { primary == SQLITE_FULL }
}
