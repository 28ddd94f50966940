import Foundation

/// The Python clients in `Tests/Interop/` (h2 + ssl, PyJWT): independent HTTP/2, TLS and JWT stacks to hold
/// the mock against, and a frame-level probe of how a connection ends.
public enum InteropPython {
    /// A Python 3 that has `h2`, `jwt` and `cryptography` (Debian's packages live under /usr/bin/python3, which
    /// a pyenv shim on PATH may hide); `make deps` installs them.
    public static func interpreter() throws -> String {
        try TestPython.importing(
            "import h2, hpack, hyperframe, jwt, cryptography",
            missing:
                "python3 with h2, jwt and cryptography is missing (make deps installs python3-h2 python3-jwt python3-cryptography)"
        )
    }

    /// Runs `Tests/Interop/<script>` with `arguments`.
    public static func run(_ script: String, _ arguments: [String], timeout: Double = 30) throws -> CommandResult {
        try CommandRunner.run(
            try interpreter(), [Repository.path("Tests/Interop/" + script)] + arguments, timeout: timeout)
    }

    /// What `h2_fault_probe.py` saw on one connection.
    public struct Probe: Sendable {
        public struct Answer: Sendable, Equatable {
            public let stream: Int
            public let status: Int
            public let reason: String?
        }
        public let answers: [Answer]
        /// GOAWAY's last-stream-id, error code and debug data, if one came.
        public let goAway: (lastStreamID: Int, errorCode: Int, data: String)?
        /// Streams reset by the server, with their error codes.
        public let resets: [(stream: Int, errorCode: Int)]
        /// `close_notify`, `eof` (FIN without close_notify), `reset` (TCP RST) or `timeout` (still open).
        public let end: String
        public let raw: String
    }

    /// Sends `paths` on one connection to `127.0.0.1:port` with the client certificate and reports how it ended.
    public static func probe(
        port: Int, caFile: String, certificate: String, paths: [String], sequential: Bool = false,
        holdFirst: Bool = false, timeoutSeconds: Double = 10
    ) throws -> Probe {
        var args = [
            "--port", String(port), "--ca-file", caFile, "--cert", certificate, "--timeout", String(timeoutSeconds),
        ]
        if sequential { args.append("--sequential") }
        if holdFirst { args.append("--hold-first") }
        let r = try run("h2_fault_probe.py", args + paths, timeout: timeoutSeconds + 20)
        guard let line = r.lines.last,
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            throw TestSupportError("h2_fault_probe.py: \(r.stdout) \(r.stderr)")
        }
        let answers = (json["answers"] as? [[String: Any]] ?? []).map {
            Probe.Answer(
                stream: $0["stream"] as? Int ?? -1, status: $0["status"] as? Int ?? -1, reason: $0["reason"] as? String)
        }
        let g = json["goaway"] as? [String: Any]
        let goAway = g.map {
            ($0["last_stream_id"] as? Int ?? -1, $0["error_code"] as? Int ?? -1, $0["data"] as? String ?? "")
        }
        let resets = (json["resets"] as? [[String: Any]] ?? []).map {
            ($0["stream"] as? Int ?? -1, $0["error_code"] as? Int ?? -1)
        }
        return Probe(answers: answers, goAway: goAway, resets: resets, end: json["end"] as? String ?? "?", raw: line)
    }
}
