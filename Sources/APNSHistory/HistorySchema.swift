/// The database's layout, one step per version. The file outlives any one release: a database of an older
/// version is brought up to date step by step when it is opened (its `user_version` says where it stands),
/// and one of a newer version is left alone.
enum HistorySchema {
    /// The steps, in order: `steps[n]` takes a database from version n to n + 1.
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
    ]

    /// The version this build writes.
    static var current: Int64 { Int64(steps.count) }
}
