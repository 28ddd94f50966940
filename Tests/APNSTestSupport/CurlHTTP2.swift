import Foundation

/// One request with `curl --http2`, an independent HTTP/2 and TLS implementation to hold the mock against.
public enum CurlHTTP2 {
    /// What curl saw: the status (0 when there was no answer), the body, and the response headers lowercased.
    public struct Response: Sendable {
        public let status: Int
        public let body: String
        public let headers: String
    }

    /// Sends `body` (none: no body) to `url` trusting `caFile`, with an optional client certificate/key.
    public static func request(
        _ url: String, method: String = "POST", headers: [String] = [], body: String?,
        caFile: String, certificate: String? = nil, key: String? = nil
    ) throws -> Response {
        let scratch = try TemporaryDirectory(prefix: "curl")
        var args = [
            "-s", "--http2", "--cacert", caFile, "-X", method, "-D", scratch.file("headers"),
            "-o", scratch.file("body"), "-w", "%{http_code}", "--max-time", "10",
        ]
        if let certificate { args += ["--cert", certificate] }
        if let key { args += ["--key", key] }
        for h in headers { args += ["-H", h] }
        if let body { args += ["--data-binary", body] }
        args.append(url)
        let r = try CommandRunner.run("curl", args, timeout: 20)
        let text = { (name: String) in (try? scratch.read(name)) ?? "" }
        return Response(status: Int(r.stdout) ?? 0, body: text("body"), headers: text("headers").lowercased())
    }
}
