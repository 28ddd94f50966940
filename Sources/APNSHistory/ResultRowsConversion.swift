/// The layout change to packed results: every entry's result rows (layout 2 and before) become chunks
/// (`ResultPacking`), with the entry's reasons; then the rows' table goes. Runs inside the migration's
/// transaction, so a database is either converted whole or left as it was.
enum ResultRowsConversion {
    static func run(_ database: SQLiteConnection) throws(SQLiteError) {
        let rows = try database.prepare(
            """
            SELECT entry, target, device_name, status, reason, apns_id, apns_unique_id, apns_request_id, timestamp,
                duration_ms, environment, endpoint, bad_device_token_in, body, error, unknown_outcome
            FROM results ORDER BY entry, position
            """)
        let chunks = try database.prepare("INSERT INTO result_chunks (entry, chunk, data) VALUES (?1, ?2, ?3)")
        let reasons = try database.prepare("UPDATE entries SET reasons = ?2 WHERE id = ?1")
        var entry: Int64? = nil
        var packing = ResultPacking()
        func store(_ chunk: (number: Int, bytes: [UInt8])?, of entry: Int64) throws(SQLiteError) {
            guard let chunk else { return }
            try chunks.bind(1, entry)
            try chunks.bind(2, chunk.number)
            try chunks.bind(3, bytes: chunk.bytes)
            try chunks.run()
            chunks.reset()
        }
        func finish(_ entry: Int64) throws(SQLiteError) {
            try store(packing.rest(), of: entry)
            try reasons.bind(1, entry)
            try reasons.bind(2, packing.reasonsText)
            try reasons.run()
            reasons.reset()
            packing = ResultPacking()
        }
        while try rows.step() {
            let owner = rows.integer(0)
            if let entry, entry != owner { try finish(entry) }
            entry = owner
            var r = HistoryResult(target: rows.text(1) ?? "", durationMs: rows.double(9))
            r.deviceName = rows.text(2)
            r.status = rows.optionalInteger(3).map { Int($0) }
            r.reason = rows.text(4)
            r.apnsID = rows.text(5)
            r.apnsUniqueID = rows.text(6)
            r.apnsRequestID = rows.text(7)
            r.timestamp = rows.optionalInteger(8)
            r.environment = rows.text(10)
            r.endpoint = rows.text(11)
            r.badDeviceTokenIn = rows.text(12)
            r.body = rows.bytes(13)
            r.error = rows.text(14)
            r.unknownOutcome = rows.integer(15) != 0
            try store(packing.add(r), of: owner)
        }
        if let entry { try finish(entry) }
        rows.reset()
        try database.execute("DROP TABLE results")
    }
}
