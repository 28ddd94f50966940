import APNSCore

/// Step 8's rewrite: an older entry kept how many device-list lines it skipped only in its outcome text
/// (`…; 3 invalid lines skipped`); the count is read back from there into `skipped_lines`, so `history show` and
/// the JSON say it for every entry alike.
enum SkippedLinesConversion {
    static func run(_ database: SQLiteConnection) throws(SQLiteError) {
        let rows = try database.prepare("SELECT id, outcome FROM entries WHERE instr(outcome, ' invalid line') > 0")
        let update = try database.prepare("UPDATE entries SET skipped_lines = ?2 WHERE id = ?1")
        var counts: [(id: Int64, count: Int)] = []
        while try rows.step() {
            let count = SkippedLinesText.count(in: rows.text(1) ?? "")
            if count > 0 { counts.append((rows.integer(0), count)) }
        }
        rows.reset()
        for (id, count) in counts {
            try update.bind(1, id)
            try update.bind(2, count)
            try update.run()
            update.reset()
        }
    }
}
