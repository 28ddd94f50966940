import APNSCore
import APNSHTTP2
import APNSPlatform

/// One JSON line per answered notification, so scripts can tail what the mock received. Lines are
/// collected per event-loop iteration and handed whole to the server's `MockLogWriter`, so lines from
/// different threads never interleave and a slow reader never stalls a loop. Never contains the bearer
/// token or key material. Text from requests is cut, and escaped by `JSONWriter` as JSON does (`\u001b`).
final class MockLog {
    private let writer: MockLogWriter?
    private var buffer: [UInt8] = []
    private var lines = 0
    /// The `time` value for this iteration (ms resolution), computed once per batch.
    private var time = ""
    private var timeMilliseconds: Int64 = -1

    init(writer: MockLogWriter?) {
        self.writer = writer
    }

    /// Appends the line for `decision` answered on connection `connection`.
    func record(_ d: MockDecision, connection: Int) {
        append(event: "answered", connection: connection) { w in
            if let b = d.broadcast { w.field("channel", b.channel) } else { w.field("device", d.device) }
            w.field("topic", d.topic)
            w.field("push_type", d.pushType)
            if let event = d.liveActivityEvent { w.field("live_activity_event", event) }
            w.field("priority", d.priority)
            if let expiration = d.expiration { w.field("expiration", String(expiration.prefix(40))) }
            if let b = d.broadcast {
                w.field("operation", b.operation.rawValue)
                w.field("apns_request_id", b.requestID)
            } else {
                w.field("apns_id", d.apnsID)
            }
            w.field("status", d.status)
            w.field("reason", d.reason?.rawValue)
            w.field("payload_size", d.payloadSize)
            w.field("auth", d.auth.rawValue)
        }
    }

    /// Appends the line for a request that arrived whole on connection `connection`, before it is judged
    /// or answered: a server that dies before answering still shows what it received.
    func recordReceived(_ request: HTTP2ServerRequest, connection: Int) {
        append(event: "received", connection: connection) { w in
            w.field("stream", Int(request.streamID))
            let path = request.headers.first { $0.name == ":path" }?.value ?? ""
            let devicePrefix = "/3/device/"
            if path.hasPrefix(devicePrefix) {
                w.field("device", String(path.dropFirst(devicePrefix.count).prefix(200)))
            } else {
                w.field("path", String(path.prefix(200)))
                // A broadcast or a channel's read or delete names its channel in a header: for a request never
                // answered, this line is the only record of which channel it was for.
                if let channel = request.headers.first(where: { $0.name == APNSHeader.channelID.rawValue })?.value {
                    w.field("channel", String(channel.prefix(200)))
                }
            }
        }
    }

    /// One line: time, event and connection, then what `fields` writes.
    private func append(event: String, connection: Int, _ fields: (inout JSONWriter) -> Void) {
        guard writer != nil else { return }
        refreshTime()
        var w = JSONWriter()
        w.beginObject()
        w.field("time", time)
        w.field("event", event)
        w.field("connection", connection)
        fields(&w)
        w.endObject()
        buffer.append(contentsOf: w.bytes)
        buffer.append(0x0A)
        lines += 1
    }

    /// Hands the lines collected so far to the writer.
    func flush() {
        guard let writer, !buffer.isEmpty else { return }
        writer.submit(buffer, lines: lines)
        buffer.removeAll(keepingCapacity: true)
        lines = 0
    }

    /// Hands the lines collected so far to the writer and waits until they are written: a connection calls it
    /// before its answers go to the socket, so a client that has its answer finds the line in the log (CLI.md;
    /// scripts read the log right after `send`). A reader that stops reading must not stall every connection:
    /// once the writer makes no progress for `patienceMilliseconds`, answers stop waiting for the log until it
    /// has caught up.
    func commit() {
        guard let writer, !buffer.isEmpty else { return }
        if readerStalled && writer.isIdle { readerStalled = false }
        let position = writer.submit(buffer, lines: lines)
        buffer.removeAll(keepingCapacity: true)
        lines = 0
        if !readerStalled && !writer.waitUntilSettled(position, patienceMilliseconds: Self.patienceMilliseconds) {
            readerStalled = true
        }
    }

    /// How long answers wait for a log writer that writes nothing at all.
    static let patienceMilliseconds = 200
    /// The writer made no progress for that long: answers go out without waiting until it is idle again.
    private var readerStalled = false

    private func refreshTime() {
        let ms = SystemClock.nowMilliseconds()
        guard ms != timeMilliseconds else { return }
        timeMilliseconds = ms
        time = Self.format(milliseconds: ms)
    }

    /// `2026-11-03T10:40:00.123Z`.
    static func format(milliseconds ms: Int64) -> String {
        let seconds = ISO8601.format(epochMilliseconds: ms)
        let fraction = String(ms % 1000 + 1000).dropFirst()
        return seconds.dropLast() + "." + fraction + "Z"
    }
}
