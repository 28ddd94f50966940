import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// How much the history keeps (30 days and 1,000 entries by default, by the world's clock), its off switches,
/// and `history clear`.
@Suite struct HistorySettingsTests {
    static func token(_ i: Int) -> String { "aa" + String(repeating: "0", count: 61) + String(i) }

    /// A world at `now` (UNIX seconds) with the home's variables plus `variables`.
    static func world(_ home: HistoryHome, now: Int64, _ variables: [String: String] = [:]) -> TestWorld {
        TestWorld(
            variables: CommandRunner.commandEnvironment(home.environment.merging(variables) { $1 }),
            home: home.root.path, now: now)
    }

    static func send(_ mock: InProcessMock, _ world: TestWorld, _ i: Int, _ extra: [String] = []) -> Int32 {
        world.run(
            ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate, "-d", token(i)]
                + extra)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// `--since` and `--before` keep a date's zone (an offset pasted from a log), read a zone-less one as local
    /// time, and refuse what they cannot read whole: `history clear --before` removed every entry for
    /// `…T06:10:00+05:00` (the offset dropped) and took `2026-02-31` or `… PST` for other times.
    @Test func timesKeepTheirZoneAndRefuseWhatTheyCannotRead() throws {
        let world = TestWorld(now: 1_800_000_000).world
        func time(_ text: String) throws -> Int64 { try HistoryTime.parse(text, flag: "--before", in: world) }
        let utc: Int64 = 1_796_087_400  // 2026-12-01T01:10:00Z
        for text in [
            "2026-12-01T01:10:00Z", "2026-12-01T06:10:00+05:00", "2026-11-30T20:10:00-05:00", "2026-12-01T01:10Z",
            "2026-12-01t01:10:00.250z", "2026-12-01T03:10+0200", " 2026-12-01T01:10:00Z ",
        ] {
            #expect(try time(text) == utc, "\(text)")
        }
        #expect(try time("2h") == 1_800_000_000 - 7200)
        // Local times as Foundation's calendar reads them (another reading of the same zone than the one used).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        func local(_ hour: Int, _ minute: Int, _ second: Int) -> Int64? {
            calendar.date(
                from: DateComponents(year: 2026, month: 12, day: 1, hour: hour, minute: minute, second: second)
            )
            .map { Int64($0.timeIntervalSince1970) }
        }
        #expect(try time("2026-12-01") == local(0, 0, 0))
        #expect(try time("2026-12-01 01:10:30") == local(1, 10, 30))
        for text in [
            "2026-12-01 broke at 3", "2026-12-01T01:10:00 PST", "2026-02-31", "2026-12-01T25:00", "2026/12/01",
            "2026-12-1", "1969-12-31T23:00:00Z",
        ] {
            #expect(throws: CLIError.self, "\(text)") { try time(text) }
        }
        let refused = #expect(throws: CLIError.self) { try time("2026-12-01T01:10:00 PST") }
        #expect(
            refused?.message
                == "--before \"2026-12-01T01:10:00 PST\": not a time; give a duration ago (30m, 2h, 7d), a local date or time (2026-11-28, 2026-11-28 18:02) or one with its zone (2026-11-28T18:02:00Z, 2026-11-28T18:02:00+05:00)"
        )
        // A time, but one no send has: out of range, not "not a time".
        for (text, why) in [
            ("0001-01-01", "before 1970"), ("1969-12-31T23:00:00Z", "before 1970"),
            // Nine digits, but days or weeks back past 1970: it listed every entry, and cleared none.
            ("999999999d", "before 1970"), ("999999999w", "before 1970"),
            ("99999999999h", "too long ago (at most 9 digits before the unit, and 999999999s is 31 years)"),
        ] {
            let early = #expect(throws: CLIError.self) { try time(text) }
            #expect(
                early?.message == "--before \"\(text)\": \(why), earlier than any send; give a later time, or leave "
                    + "--before out", "\(early?.message ?? "")")
        }
    }

    @Test func entriesOlderThanThirtyDaysGoByTheWorldsClock() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let day: Int64 = 86_400
        #expect(Self.send(mock, Self.world(home, now: Self.now), 1) == 0)
        #expect(Self.send(mock, Self.world(home, now: Self.now + 29 * day), 2) == 0)
        #expect(try home.run(["history"]).lines.count == 2)
        #expect(Self.send(mock, Self.world(home, now: Self.now + 31 * day), 3) == 0)
        let left = try HistoryHome.objects(try home.run(["history", "list", "-o", "json"]))
        #expect(left.map { $0["id"] as? Int } == [3, 2])
        // APNSCTL_HISTORY_DAYS=1 keeps one day.
        #expect(
            Self.send(mock, Self.world(home, now: Self.now + 31 * day + 3600, ["APNSCTL_HISTORY_DAYS": "1"]), 4) == 0)
        #expect(
            try HistoryHome.objects(try home.run(["history", "list", "-o", "json"])).map { $0["id"] as? Int } == [4, 3])
        // Any count of days the setting takes keeps everything (9223372036854775807 days overflowed: a crash after
        // the send, which was then not recorded).
        for days in [String(Int.max), "106751991167301"] {
            #expect(Self.send(mock, Self.world(home, now: Self.now + 32 * day, ["APNSCTL_HISTORY_DAYS": days]), 5) == 0)
        }
        #expect(
            try HistoryHome.objects(try home.run(["history", "list", "-o", "json"])).map { $0["id"] as? Int }
                == [6, 5, 4, 3])
    }

    @Test func theNewestEntriesAreKeptByCount() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome(["APNSCTL_HISTORY_ENTRIES": "2"])
        for i in 1...3 { #expect(try home.send(mock, ["-d", Self.token(i)]).status == 0) }
        #expect(
            try HistoryHome.objects(try home.run(["history", "list", "-o", "json"])).map { $0["id"] as? Int } == [3, 2])
        let bad = try home.send(mock, ["-d", Self.token(1)], ["APNSCTL_HISTORY_ENTRIES": "0"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("APNSCTL_HISTORY_ENTRIES"), "\(bad.stderr)")
        #expect(bad.stderr.hasSuffix(": must be 1 or more\n"), "\(bad.stderr)")
    }

    @Test func theOffSwitchesRecordNothing() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        #expect(try home.send(mock, ["-d", Self.token(1), "--no-history"]).status == 0)
        #expect(try home.send(mock, ["-d", Self.token(1)], ["APNSCTL_NO_HISTORY": "1"]).status == 0)
        let config = try home.root.write("config.toml", "[profiles.quiet]\nhistory = false\n", mode: 0o600)
        #expect(try home.send(mock, ["-d", Self.token(1), "-p", "quiet"], ["APNSCTL_CONFIG": config]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: home.database))
        let empty = try home.run(["history"])
        #expect(empty.status == 0)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr == "no send is recorded in the history yet\n")
        // The variable switched off again records.
        #expect(try home.send(mock, ["-d", Self.token(1)], ["APNSCTL_NO_HISTORY": "0"]).status == 0)
        #expect(try home.run(["history"]).lines.count == 1)
        let unknown = try home.run(["history", "show", "7"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("#7 does not exist (the newest are #1)"), "\(unknown.stderr)")
        // A number past every entry's (and past Int64) is one that does not exist, not a word mistyped.
        let huge = try home.run(["history", "show", "99999999999999999999999"])
        #expect(huge.status == 64)
        #expect(
            huge.errorLines == [
                "error: history entry #99999999999999999999999 does not exist (the newest are #1); apnsctl history lists them"
            ], "\(huge.stderr)")
        // "The one before last" as a negative number: numbers start at 1, and last is said.
        for reference in ["-1", "0"] {
            let r = try home.run(["send", "--replay=\(reference)"])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(
                r.stderr.hasPrefix(
                    "error: history entry numbers start at #1, so \"\(reference)\" names none; last is the newest"),
                "\(r.stderr)")
        }
    }

    @Test func clearAsksOnATerminalAndNeedsYesElsewhere() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        for i in 1...2 { #expect(try home.send(mock, ["-d", Self.token(i)]).status == 0) }
        let refused = try home.run(["history", "clear"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("pass --yes"), "\(refused.stderr)")

        func onTerminal(answer: String) -> (TestWorld, LockedValueBox) {
            let asked = LockedValueBox()
            let t = Self.world(home, now: Self.now)
            t.world.terminal = CommandTerminal(
                isAvailable: { true },
                readLine: { prompt in
                    asked.set(prompt)
                    return answer
                },
                readSecret: { _ in nil }, passphrasePrompt: NoTerminalPrompt())
            return (t, asked)
        }
        let (no, askedNo) = onTerminal(answer: "n")
        #expect(no.run(["history", "clear"]) == 64)
        #expect(askedNo.value.hasPrefix("Remove every recorded send from \(home.database)?"), "\(askedNo.value)")
        #expect(try home.run(["history"]).lines.count == 2)
        let (yes, _) = onTerminal(answer: "y")
        #expect(yes.run(["history", "clear", "--before", "2000-01-01"]) == 0)
        #expect(yes.stderr.text == "removed 0 entries from the history\n")
        #expect(yes.run(["history", "clear"]) == 0)
        #expect(try home.run(["history"]).lines.isEmpty)
        #expect(try home.send(mock, ["-d", Self.token(3)]).status == 0)
        let cleared = try home.run(["history", "clear", "--yes"])
        #expect(cleared.status == 0)
        #expect(cleared.stderr == "removed 1 entry from the history\n")
    }

    /// A clear gives the file's space back: a batch of 20,000 results made it hundreds of KB, and a clear
    /// leaves it (and its write-ahead log) at the size of an empty history.
    @Test func clearFreesTheSpace() throws {
        let mock = try InProcessMock()
        let home = try HistoryHome()
        let scratch = try TemporaryDirectory(prefix: "history-space")
        let list = try SendDeliveryTests.deviceFile(20_000, in: scratch)
        #expect(try home.send(mock, ["--devices", list, "-q"]).status == 0)
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        let full = size(home.database) + size(home.database + "-wal")
        #expect(full > 300_000, "\(full) bytes")
        #expect(try home.run(["history", "clear", "--yes"]).status == 0)
        let empty = size(home.database) + size(home.database + "-wal")
        #expect(empty < 64 * 1024, "\(empty) bytes after the clear, \(full) before")
    }
}

/// The last prompt a test terminal was shown.
final class LockedValueBox: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ s: String) { lock.withLock { text = s } }
    var value: String { lock.withLock { text } }
}
