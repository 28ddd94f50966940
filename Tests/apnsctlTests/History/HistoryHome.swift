import APNSTestSupport
import Foundation

/// A private state and cache folder for history tests: every run of `apnsctl` through it records into (and
/// reads) its own `history.db`, against an in-process mock when given.
struct HistoryHome {
    let root: TemporaryDirectory
    var environment: [String: String]

    init(_ extra: [String: String] = [:]) throws {
        root = try TemporaryDirectory(prefix: "history-home")
        environment = ["XDG_STATE_HOME": root.file("state"), "XDG_CACHE_HOME": root.file("cache")]
        for (k, v) in extra { environment[k] = v }
    }

    /// `$XDG_STATE_HOME/apnsctl`.
    var folder: String { root.file("state/apnsctl") }
    var database: String { folder + "/history.db" }

    @discardableResult
    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> CommandResult {
        try InProcess.apnsctl(arguments, environment: environment.merging(extra) { $1 })
    }

    /// `send` to `mock` with its certificate, plus `arguments`.
    func send(_ mock: InProcessMock, _ arguments: [String], _ extra: [String: String] = [:]) throws -> CommandResult {
        try run(
            ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate] + arguments,
            extra)
    }

    /// The JSON objects of a run's stdout, one per line.
    static func objects(_ r: CommandResult) throws -> [NSDictionary] {
        try r.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary }
    }

    /// `history show ID -o json`, parsed.
    func show(_ id: String) throws -> NSDictionary {
        let r = try run(["history", "show", id, "-o", "json"])
        guard r.status == 0, let object = try HistoryHome.objects(r).first else {
            throw TestSupportError("history show \(id): exit \(r.status): \(r.stderr)")
        }
        return object
    }
}

extension InProcessMock {
    /// The server, its CA, token auth and the topic: what a channel or a broadcast to this mock takes.
    var broadcastArguments: [String] {
        [
            "--endpoint", endpoint, "--ca-file", caFile, "--auth-key", authKey, "--team-id", teamID, "--topic",
            bundleID,
        ]
    }

    /// The log's `answered` lines from line `from` on, without what changes between two sends of the same
    /// request (time, connection, stream, the answer's ids).
    func answeredRequests(from: Int = 0) -> [String] {
        let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").filter { $0.contains(#""event":"answered""#) }
        return lines.dropFirst(from).compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            let kept = object.filter {
                !["time", "connection", "stream", "apns_id", "apns_request_id"].contains($0.key)
            }
            return (try? JSONSerialization.data(withJSONObject: kept, options: .sortedKeys))
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
