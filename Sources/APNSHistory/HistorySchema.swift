/// The database's layout, one step per version. The file outlives any one release: a database of an older
/// version is brought up to date step by step when it is opened (its `user_version` says where it stands),
/// and one of a newer version is left alone.
enum HistorySchema {
    /// The SQL of each step, in order: `steps[n]` takes a database from version n to n + 1 (with
    /// `conversion(after:)` where rows must be rewritten).
    static let steps: [String] = [
        // 1: entries and their results. Entry numbers are never reused (AUTOINCREMENT), so `#41` keeps
        // naming the same send after older ones are removed.
        """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started INTEGER NOT NULL,
            duration_ms REAL NOT NULL,
            kind TEXT NOT NULL,
            environment TEXT NOT NULL,
            endpoints TEXT NOT NULL,
            ca_file TEXT,
            topic TEXT,
            push_type TEXT,
            priority INTEGER,
            expiration TEXT,
            collapse_id TEXT,
            credential TEXT NOT NULL,
            payload BLOB NOT NULL,
            interrupted INTEGER NOT NULL,
            devices INTEGER NOT NULL,
            accepted INTEGER NOT NULL,
            rejected INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            outcome TEXT NOT NULL
        );
        CREATE INDEX entries_started ON entries(started);
        CREATE TABLE results (
            entry INTEGER NOT NULL,
            position INTEGER NOT NULL,
            target TEXT NOT NULL,
            device_name TEXT,
            status INTEGER,
            reason TEXT,
            apns_id TEXT,
            apns_unique_id TEXT,
            apns_request_id TEXT,
            timestamp INTEGER,
            duration_ms REAL NOT NULL,
            environment TEXT,
            endpoint TEXT,
            bad_device_token_in TEXT,
            body BLOB,
            error TEXT,
            unknown_outcome INTEGER NOT NULL,
            PRIMARY KEY (entry, position)
        ) WITHOUT ROWID;
        """,
        // 2: which entry a `send --replay` replayed.
        "ALTER TABLE entries ADD COLUMN replay_of INTEGER;",
        // 3: results packed a few dozen kilobytes to a row (`ResultChunkEncoder`): a row per result made a
        // 20,000-device batch cost a quarter of its time. The reasons the results hold, one per line between
        // newlines, are kept with the entry for `history list --reason`. The results rows move in, then go.
        // A given `--apns-id` or `--request-id`, which a replay sends again.
        """
        ALTER TABLE entries ADD COLUMN reasons TEXT NOT NULL DEFAULT '';
        ALTER TABLE entries ADD COLUMN apns_id TEXT;
        ALTER TABLE entries ADD COLUMN request_id TEXT;
        CREATE TABLE result_chunks (
            entry INTEGER NOT NULL,
            chunk INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (entry, chunk)
        ) WITHOUT ROWID;
        """,
        // No change of layout: packed results may carry how many times each was sent (a field an older build
        // cannot skip), and `interrupted` may be 2 (stopped for lost output). The version says so, so an older
        // apnsctl leaves the file alone (`newerSchema`) instead of calling it damaged.
        "SELECT 1;",
        // 5: how many devices were never sent (a failed run's, which have a result, and an interrupt's, which have
        // none).
        "ALTER TABLE entries ADD COLUMN never_sent INTEGER NOT NULL DEFAULT 0;",
        // 6: how many of them have no result, so `history show` ends as the send did.
        "ALTER TABLE entries ADD COLUMN without_result INTEGER NOT NULL DEFAULT 0;",
        // 7: whether the push type was given (a flag, a variable, a profile) or followed from the payload and topic:
        // a replay with another PAYLOAD keeps only a given one. NULL in older entries: not known.
        "ALTER TABLE entries ADD COLUMN push_type_given INTEGER;",
        // 8: how many lines of the device list were skipped as invalid (the outcome text alone said it).
        "ALTER TABLE entries ADD COLUMN skipped_lines INTEGER NOT NULL DEFAULT 0;",
    ]

    /// The rewrite that completes step `step` (numbered from 0), run in the same transaction after its SQL.
    static func conversion(after step: Int, in database: SQLiteConnection) throws(SQLiteError) {
        switch step {
        case 2: try ResultRowsConversion.run(database)
        case 7: try SkippedLinesConversion.run(database)
        default: return
        }
    }

    /// The version this build writes.
    static var current: Int64 { Int64(steps.count) }
}
