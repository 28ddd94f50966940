import APNSTestSupport
import Foundation
import Testing

@testable import APNSHistory

/// The history database on its own: entries written and read back whole, retention by age and by count,
/// several writers at once, and the layout's migration from its first version.
@Suite struct HistoryStoreTests {
    static func entry(started: Int64, targets: [String] = ["00ff"], payload: String = #"{"aps":{"alert":"hi"}}"#)
        -> HistoryEntry
    {
        var results: [HistoryResult] = []
        for (i, t) in targets.enumerated() {
            var r = HistoryResult(target: t, durationMs: Double(i) + 0.5)
            r.status = i % 2 == 0 ? 200 : 410
            r.reason = i % 2 == 0 ? nil : "Unregistered"
            r.apnsID = "8A6C1F8E-0000-0000-0000-00000000000\(i % 10)"
            r.body = i % 2 == 0 ? [] : Array(#"{"reason":"Unregistered","timestamp":1762166400000}"#.utf8)
            r.timestamp = i % 2 == 0 ? nil : 1_762_166_400_000
            results.append(r)
        }
        var e = HistoryEntry(
            started: started, durationMs: 12.5, kind: .devices, environment: "sandbox",
            endpoints: ["https://127.0.0.1:8443"], credential: "token key ABCDE12345, team TEAMID1234",
            payload: Array(payload.utf8), results: results)
        e.topic = "com.example.app"
        e.pushType = "alert"
        e.priority = 10
        e.counts.targets = targets.count
        return e
    }

    static func open(_ dir: TemporaryDirectory) throws -> HistoryStore {
        try #require(try HistoryStore.open(directory: dir.file("apnsctl"), create: true))
    }

    @Test func anEntryReadsBackAsItWasWritten() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let store = try Self.open(dir)
        var written = Self.entry(started: 1_800_000_000, targets: ["aa", "bb", "cc"])
        let id = try store.record(written, keepDays: 30, keepEntries: 1000, now: 1_800_000_000)
        written.id = id
        #expect(try store.entry(id) == written)
        #expect(try store.newestID() == id)
        // The folder and the file are private, and the database is in WAL mode.
        #expect(OtherUser.ownerAndMode(dir.file("apnsctl"))?.mode == 0o700)
        #expect(OtherUser.ownerAndMode(dir.file("apnsctl/history.db"))?.mode == 0o600)
        #expect(FileManager.default.fileExists(atPath: dir.file("apnsctl/history.db-wal")))
    }

    @Test func retentionRemovesOldEntriesAndKeepsTheNewestCount() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let store = try Self.open(dir)
        let day: Int64 = 86_400
        let now: Int64 = 1_800_000_000
        let old = try store.record(
            Self.entry(started: now - 31 * day), keepDays: 30, keepEntries: 10, now: now - 31 * day)
        let recent = try store.record(Self.entry(started: now - 29 * day), keepDays: 30, keepEntries: 10, now: now)
        let ids = try store.entries(HistoryQuery()).map(\.id)
        #expect(ids == [recent], "the 31-day-old entry \(old) is gone, the 29-day-old one stays")
        var last: Int64 = 0
        for i in 0..<5 {
            last = try store.record(Self.entry(started: now + Int64(i)), keepDays: 30, keepEntries: 3, now: now)
        }
        #expect(try store.entries(HistoryQuery()).map(\.id) == [last, last - 1, last - 2])
        // Results of removed entries go with them.
        #expect(try store.entry(recent) == nil)
    }

    @Test func queriesFilterByDeviceReasonAndTime() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let store = try Self.open(dir)
        var named = Self.entry(started: 100, targets: ["aa"])
        named.results[0].deviceName = "my-iphone"
        let a = try store.record(named, keepDays: 100_000, keepEntries: 1000, now: 100)
        let b = try store.record(
            Self.entry(started: 200, targets: ["bb", "cc"]), keepDays: 100_000, keepEntries: 1000, now: 200)
        #expect(try store.entries(HistoryQuery(device: "my-iphone")).map(\.id) == [a])
        #expect(try store.entries(HistoryQuery(device: "CC")).map(\.id) == [b])
        #expect(try store.entries(HistoryQuery(reason: "unregistered")).map(\.id) == [b])
        #expect(try store.entries(HistoryQuery(since: 150)).map(\.id) == [b])
        #expect(try store.entries(HistoryQuery(limit: 1)).map(\.id) == [b])
        #expect(try store.clear(before: 150) == 1)
        #expect(try store.entries(HistoryQuery()).map(\.id) == [b])
    }

    @Test func eightWritersAtOnceEachRecordOnce() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let directory = dir.file("apnsctl")
        let failures = LockedList()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            do {
                let store = try #require(try HistoryStore.open(directory: directory, create: true))
                try store.record(
                    Self.entry(started: 1_000 + Int64(i), targets: (0..<500).map { String(format: "%04x", $0) }),
                    keepDays: 100_000, keepEntries: 1000, now: 1_000)
            } catch {
                failures.append("\(i): \(error)")
            }
        }
        #expect(failures.items.isEmpty)
        let store = try Self.open(dir)
        let entries = try store.entries(HistoryQuery())
        #expect(entries.count == 8)
        #expect(Set(entries.map(\.started)) == Set((0..<8).map { 1_000 + Int64($0) }))
        for e in entries { #expect(try store.entry(e.id)?.results.count == 500) }
    }

    /// A database of the first layout (as the first release wrote it) opens after the layout changed, keeps its
    /// entries, and takes new ones.
    /// A database an older release wrote, in a fresh history folder: its path, and a connection in WAL mode.
    static func olderDatabase(_ dir: TemporaryDirectory) throws -> (String, SQLiteConnection) {
        try FileManager.default.createDirectory(
            atPath: dir.file("apnsctl"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let path = dir.file("apnsctl/history.db")
        let connection = try SQLiteConnection.open(path, readOnly: false, busyMilliseconds: 100)
        try connection.execute("PRAGMA journal_mode=WAL")
        return (path, connection)
    }

    /// A history of layout `version` in `dir`, made by the steps up to it, with `filling` run on it before it is
    /// closed; mode 0600, as apnsctl makes it.
    static func database(
        atVersion version: Int, in dir: TemporaryDirectory, filling: (SQLiteConnection) throws -> Void = { _ in }
    ) throws {
        let (path, old) = try Self.olderDatabase(dir)
        for step in 0..<version {
            try old.execute(HistorySchema.steps[step])
            try HistorySchema.conversion(after: step, in: old)
        }
        try filling(old)
        try old.execute("PRAGMA user_version = \(version)")
        chmod(path, 0o600)
    }

    /// The layout an open checks a current database against is the one the steps make: a step added without
    /// `currentLayout` following fails here (and every open of a history would call it damaged).
    @Test func theCurrentLayoutIsWhatTheStepsMake() throws {
        #expect(try HistorySchema.replicaLayout(at: HistorySchema.current) == HistorySchema.currentLayout)
        // And a database brought up to date from every older layout has it too.
        for version in 1..<Int(HistorySchema.current) {
            let dir = try TemporaryDirectory(prefix: "history")
            try Self.database(atVersion: version, in: dir)
            let store = try Self.open(dir)
            #expect(try HistorySchema.layout(of: store.database) == HistorySchema.currentLayout, "from \(version)")
        }
    }

    @Test func aFirstVersionDatabaseIsMigrated() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let path: String
        do {
            let v1: SQLiteConnection
            (path, v1) = try Self.olderDatabase(dir)
            try v1.execute(HistorySchema.steps[0])
            try v1.execute(
                """
                INSERT INTO entries (started, duration_ms, kind, environment, endpoints, credential, payload, interrupted,
                    devices, accepted, rejected, failed, outcome)
                VALUES (5, 1.5, 'devices', 'sandbox', 'https://127.0.0.1:1', 'token key K, team T', X'7B7D', 0, 1, 1, 0, 0,
                    '1 device: 1 accepted');
                INSERT INTO results (entry, position, target, status, duration_ms, unknown_outcome)
                VALUES (1, 0, '00ff', 200, 1.0, 0);
                INSERT INTO entries (started, duration_ms, kind, environment, endpoints, credential, payload, interrupted,
                    devices, accepted, rejected, failed, outcome)
                VALUES (6, 2.5, 'devices', 'sandbox', 'https://127.0.0.1:1', 'token key K, team T', X'7B7D', 0, 2, 1, 1, 0,
                    '2 devices: 1 accepted, 1 rejected (Unregistered 1)');
                INSERT INTO results (entry, position, target, device_name, status, reason, apns_id, apns_unique_id,
                    timestamp, duration_ms, body, unknown_outcome)
                VALUES (2, 1, 'ab01', NULL, 410, 'Unregistered', '8A6C1F8E-0000-0000-0000-0000000000AB', NULL,
                    1762166400000, 3.25, X'7B7D', 0),
                    (2, 0, 'ab00', 'my-phone', 200, NULL, '8A6C1F8E-0000-0000-0000-0000000000AA',
                    'a0b1c2d3-0000-0000-0000-000000000000', NULL, 2.0, NULL, 0);
                PRAGMA user_version = 1;
                """)
        }
        chmod(path, 0o600)
        #expect(HistorySchema.current > 1, "this test is about a layout change")
        let store = try Self.open(dir)
        #expect(try store.database.integer("PRAGMA user_version") == HistorySchema.current)
        let old = try #require(try store.entry(1))
        #expect(old.payload == Array("{}".utf8))
        #expect(old.replayOf == nil)
        #expect(old.results.map(\.target) == ["00ff"])
        // Every result's fields, in their order, through the change to packed results; the filters find them.
        var phone = HistoryResult(target: "ab00", durationMs: 2.0)
        phone.deviceName = "my-phone"
        phone.status = 200
        phone.apnsID = "8A6C1F8E-0000-0000-0000-0000000000AA"
        phone.apnsUniqueID = "a0b1c2d3-0000-0000-0000-000000000000"
        var gone = HistoryResult(target: "ab01", durationMs: 3.25)
        gone.status = 410
        gone.reason = "Unregistered"
        gone.apnsID = "8A6C1F8E-0000-0000-0000-0000000000AB"
        gone.timestamp = 1_762_166_400_000
        gone.body = Array("{}".utf8)
        #expect(try store.entry(2)?.results == [phone, gone])
        #expect(try store.entries(HistoryQuery(reason: "UNREGISTERED")).map(\.id) == [2])
        #expect(try store.entries(HistoryQuery(device: "my-phone")).map(\.id) == [2])
        #expect(try store.entries(HistoryQuery(device: "00FF")).map(\.id) == [1])
        #expect(try store.database.integer("SELECT count(*) FROM sqlite_master WHERE name = 'results'") == 0)
        var replay = Self.entry(started: 10)
        replay.replayOf = 1
        let id = try store.record(replay, keepDays: 100_000, keepEntries: 1000, now: 10)
        #expect(try store.entry(id)?.replayOf == 1)
    }

    /// Every layout a release wrote is brought up to date by the steps after it: each earlier version, made by
    /// running the steps up to it, opens and takes an entry (a column two steps added at once would be missed by a
    /// database already at the first's version).
    @Test func everyEarlierLayoutIsBroughtUpToDate() throws {
        for version in 1..<HistorySchema.steps.count {
            let dir = try TemporaryDirectory(prefix: "history-v\(version)")
            try Self.database(atVersion: version, in: dir)
            let store = try Self.open(dir)
            #expect(try store.database.integer("PRAGMA user_version") == HistorySchema.current, "v\(version)")
            var entry = HistoryEntry(
                started: 7, durationMs: 1, kind: .devices, environment: "sandbox", endpoints: [], credential: "c",
                payload: [],
                results: [])
            entry.counts.neverSent = 3
            entry.counts.withoutResult = 2
            entry.counts.skippedLines = 4
            let recording = try store.beginRecording()
            let id = try recording.finish(entry, keepDays: 30, keepEntries: 1000, now: 7)
            let read = try #require(try store.entry(id))
            #expect(read.counts.neverSent == 3 && read.counts.withoutResult == 2, "v\(version)")
            #expect(read.counts.skippedLines == 4, "v\(version)")
        }
    }

    /// Before step 8 an entry kept its skipped device-list lines only in its outcome text: the count is read back.
    @Test func skippedLinesOfAnOlderEntryAreReadFromItsOutcome() throws {
        let dir = try TemporaryDirectory(prefix: "history-skipped")
        try Self.database(atVersion: 7, in: dir) { old in
            for (started, outcome) in [
                (1, "6 devices: 6 accepted; 3 invalid lines skipped"),
                (2, "1 device: 1 accepted; 1 invalid line skipped; the list stopped at its bad line"),
                (3, "2 devices: 2 accepted"),
                // A server's reason quoted in the outcome holds the words, not the clause.
                (4, "2 devices: 1 accepted, 1 rejected (Weird 7 invalid lines skipped 1)"),
            ] {
                try old.execute(
                    "INSERT INTO entries (started, duration_ms, kind, environment, endpoints, credential, payload, "
                        + "interrupted, devices, accepted, rejected, failed, outcome) VALUES (\(started), 1, 'devices', "
                        + "'sandbox', '', 'c', x'', 0, 1, 1, 0, 0, '\(outcome)')")
            }
        }
        let store = try Self.open(dir)
        let counts = try (1...4).map { try #require(try store.entry(Int64($0))).counts.skippedLines }
        #expect(counts == [3, 1, 0, 0])
    }

    @Test func aLayoutFromANewerReleaseIsLeftAlone() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        _ = try Self.open(dir)
        do {
            let db = try SQLiteConnection.open(dir.file("apnsctl/history.db"), readOnly: false, busyMilliseconds: 100)
            try db.execute("PRAGMA user_version = \(HistorySchema.current + 1)")
        }
        #expect(
            throws: HistoryProblem.newerSchema(path: dir.file("apnsctl/history.db"), version: HistorySchema.current + 1)
        ) {
            _ = try HistoryStore.open(directory: dir.file("apnsctl"), create: true)
        }
    }

    /// A batch larger than the chunks a recording holds in memory (so most go through the temporary table) reads
    /// back whole and in order, each field as it was written: texts that look like tokens or UUIDs (in either
    /// case) and ones that only nearly do, bodies, negative numbers.
    @Test func aBatchOfManyChunksReadsBackAsItWasWritten() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let store = try Self.open(dir)
        let shapes = [
            "ab", "AB", "abc", "", "8a6c1f8e-1234-5678-9abc-def012345678", "8A6C1F8E-1234-5678-9ABC-DEF012345678",
            "8a6c1f8e-1234-5678-9ABC-def012345678", "8a6c1f8e_1234_5678_9abc_def012345678", "café ☕️", "line\nbreak",
            "12345678-1234-5678-1234-123456789012", "0123456789abcdef0123456789abcdef0123",
            "0123456789abcdef0123456789abcdef012-", "8a6c1f8e-12345-678-9abc-def012345678", "ABCDEF", "abcdeg", "0",
            String(repeating: "0a", count: 300),
        ]
        var entry = Self.entry(started: 1_800_000_000, targets: [])
        for i in 0..<25_000 {
            var r = HistoryResult(
                target: i % 7 == 0 ? shapes[i % shapes.count] : String(format: "%064x", i), durationMs: Double(i) / 3)
            r.deviceName = i % 5 == 0 ? "device-\(i)" : nil
            r.status = i % 3 == 0 ? nil : 200 + i % 300
            r.reason = i % 11 == 0 ? shapes[(i / 11) % shapes.count] : nil
            r.apnsID = shapes[i % shapes.count]
            r.apnsUniqueID = i % 2 == 0 ? shapes[(i + 5) % shapes.count] : nil
            r.apnsRequestID = i % 4 == 0 ? shapes[(i + 4) % shapes.count] : nil
            r.timestamp = i % 13 == 0 ? -Int64(i) * 1_000_000_007 : nil
            r.environment = i % 17 == 0 ? "production" : nil
            r.endpoint = i % 17 == 0 ? "https://api.push.apple.com" : nil
            r.badDeviceTokenIn = i % 19 == 0 ? "sandbox" : nil
            r.body = i % 4 == 0 ? Array(repeating: UInt8(i % 256), count: i % 300) : []
            r.error = i % 3 == 0 ? "connection reset \(i)" : nil
            r.unknownOutcome = i % 6 == 0
            entry.results.append(r)
        }
        let id = try store.record(entry, keepDays: 30, keepEntries: 1000, now: 1_800_000_000)
        entry.id = id
        // A large entry empties the WAL it filled, so the next send's open has nothing to read again.
        let log = try FileManager.default.attributesOfItem(atPath: dir.file("apnsctl/history.db-wal"))
        #expect((log[.size] as? Int) == 0, "\(log[.size] ?? "none")")
        let chunks = try store.database.integer("SELECT count(*) FROM result_chunks WHERE entry = \(id)")
        #expect(chunks > Int64(HistoryRecording.heldLimit), "past what a recording holds in memory")
        let read = try #require(try store.entry(id))
        #expect(read.results.count == entry.results.count)
        for (a, b) in zip(read.results, entry.results) where a != b {
            Issue.record("\(a) != \(b)")
            break
        }
        #expect(read == entry)
        #expect(try store.entries(HistoryQuery(device: "device-24995")).map(\.id) == [id])
        #expect(try store.entries(HistoryQuery(device: "device-4996")).isEmpty)
    }

    /// Closing the database leaves its WAL for the next send instead of copying it in (two fsyncs a send): the
    /// file stays, and the entries are there for the next reader.
    @Test func closingKeepsTheWriteAheadLog() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        do {
            let store = try Self.open(dir)
            try store.record(Self.entry(started: 5), keepDays: 100_000, keepEntries: 1000, now: 5)
        }
        #expect(FileManager.default.fileExists(atPath: dir.file("apnsctl/history.db-wal")))
        #expect(try Self.open(dir).entries(HistoryQuery()).count == 1)
    }

    /// Each send opens the history, records one entry and closes it, leaving the WAL for the next. The log must
    /// still be emptied as it grows: SQLite's automatic checkpoint copied it in but never started it over across
    /// connections, so it grew by every send's pages (5.5 MB after 300 sends), each send read all of it on open
    /// and copied its pages in again, with three fsyncs.
    @Test func theLogStaysSmallAcrossSendsThatEachOpenTheHistory() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let log = dir.file("apnsctl/history.db-wal")
        var largest = 0
        var emptied = 0
        for send in 1...150 {
            let store = try Self.open(dir)
            try store.record(
                Self.entry(started: Int64(send), targets: ["aa", "bb"]), keepDays: 100_000, keepEntries: 1000,
                now: Int64(send))
            let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
            largest = max(largest, size)
            if size == 0 { emptied += 1 }
        }
        // The log's header, and frames of a 4 KB page and 24 bytes each: 100 pages and one send's on top.
        #expect(largest <= 32 + (HistoryStore.logPages + 20) * (4096 + 24), "largest log: \(largest) bytes")
        #expect(emptied >= 2, "emptied \(emptied) times in 150 sends")
        #expect(try Self.open(dir).entries(HistoryQuery()).count == 150)
    }

    /// A reader holding the log (a `history` piped into a pager) does not hold up the send that would empty it:
    /// the send finishes at once, leaves the log, and the first send after the reader empties it.
    @Test func aReaderHoldingTheLogDelaysNoSend() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let log = dir.file("apnsctl/history.db-wal")
        let writer = try Self.open(dir)
        let reader = try Self.open(dir)
        try writer.record(Self.entry(started: 1), keepDays: 100_000, keepEntries: 1000, now: 1)
        try reader.database.execute("BEGIN")
        #expect(try reader.database.integer("SELECT count(*) FROM entries") == 1)
        let large = Self.entry(started: 2, targets: (0..<20_000).map { String(format: "%064x", $0) })
        try writer.record(large, keepDays: 100_000, keepEntries: 1000, now: 2)
        let started = ContinuousClock.now
        for send in 3...5 {
            try writer.record(
                Self.entry(started: Int64(send)), keepDays: 100_000, keepEntries: 1000, now: Int64(send))
        }
        // Three sends that each found the log full: waiting out the 2 s busy timeout, they took 6 s.
        #expect(ContinuousClock.now - started < .seconds(5))
        let held = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        #expect(held > HistoryStore.logPages * 4096)
        try reader.database.execute("COMMIT")
        try writer.record(Self.entry(started: 6), keepDays: 100_000, keepEntries: 1000, now: 6)
        #expect(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int == 0)
    }

    /// A packed result that was damaged on the disk is the history's "corrupt" (exit 66 in `history`), not a crash.
    @Test func aDamagedChunkIsCorrupt() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        let store = try Self.open(dir)
        let id = try store.record(
            Self.entry(started: 5, targets: ["aa", "bb"]), keepDays: 100_000, keepEntries: 1000, now: 5)
        try store.database.execute("UPDATE result_chunks SET data = substr(data, 1, length(data) - 3)")
        #expect(throws: HistoryProblem.corrupt(path: store.path)) { _ = try store.entry(id) }
        try store.database.execute("UPDATE result_chunks SET data = X'01FFFFFFFFFFFFFFFFFFFF01'")
        #expect(throws: HistoryProblem.corrupt(path: store.path)) { _ = try store.entry(id) }
    }

    @Test func aMissingHistoryIsNotCreatedForReading() throws {
        let dir = try TemporaryDirectory(prefix: "history")
        #expect(try HistoryStore.open(directory: dir.file("apnsctl"), create: false) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("apnsctl")))
    }
}

/// Strings appended from several threads.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ s: String) { lock.withLock { list.append(s) } }
    var items: [String] { lock.withLock { list } }
}

extension HistoryStore {
    /// Records `entry` with its own results as a send does (`beginRecording`, each result, `finish`); returns its
    /// number.
    @discardableResult
    func record(_ entry: HistoryEntry, keepDays: Int, keepEntries: Int, now: Int64) throws(HistoryProblem) -> Int64 {
        let recording = try beginRecording()
        for result in entry.results { try recording.add(result) }
        return try recording.finish(entry, keepDays: keepDays, keepEntries: keepEntries, now: now)
    }
}
