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

    /// The tables of the current version with their columns, as `steps` make them: written out because taking an
    /// empty database through the steps costs a millisecond, a tenth of a `history` command. A test takes a
    /// database through them and compares.
    static let currentLayout: [String: Set<String>] = [
        "entries": [
            "id", "started", "duration_ms", "kind", "environment", "endpoints", "ca_file", "topic", "push_type",
            "priority", "expiration", "collapse_id", "credential", "payload", "interrupted", "devices", "accepted",
            "rejected", "failed", "outcome", "replay_of", "reasons", "apns_id", "request_id", "never_sent",
            "without_result", "push_type_given", "skipped_lines",
        ],
        "result_chunks": ["entry", "chunk", "data"],
        "sqlite_sequence": ["name", "seq"],
    ]

    /// The tables of a database at `version` with their columns: `currentLayout`, or for an older version (a
    /// database about to be brought up to date) what an empty database in memory has after the steps to it.
    static func layout(at version: Int64) throws(SQLiteError) -> [String: Set<String>] {
        if version == current { return currentLayout }
        return try replicaLayout(at: version)
    }

    /// What an empty database in memory has after the steps up to `version`.
    static func replicaLayout(at version: Int64) throws(SQLiteError) -> [String: Set<String>] {
        let replica = try SQLiteConnection.open(":memory:", readOnly: false, busyMilliseconds: 0)
        for step in 0..<Int(version) {
            try replica.execute(steps[step])
            try conversion(after: step, in: replica)
        }
        return try layout(of: replica)
    }

    /// The tables of `database` with their columns.
    static func layout(of database: SQLiteConnection) throws(SQLiteError) -> [String: Set<String>] {
        let columns = try database.prepare(
            "SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c WHERE m.type = 'table'")
        var tables: [String: Set<String>] = [:]
        while try columns.step() {
            tables[columns.text(0) ?? "", default: []].insert(columns.text(1) ?? "")
        }
        return tables
    }

    /// Whether `database`, which says it is at `version`, has that version's tables with exactly their columns. A
    /// table dropped, a column dropped, or one its version has not added yet (which the next step would add
    /// again) is a layout apnsctl never wrote: a damaged history, said once here rather than as SQLite's words at
    /// whichever query or step trips on it. Tables of no version (another program's) are left alone.
    static func holds(_ database: SQLiteConnection, at version: Int64) throws(SQLiteError) -> Bool {
        let expected = try layout(at: version)
        let found = try layout(of: database)
        return expected.allSatisfy { table, columns in found[table] == columns }
    }
}
