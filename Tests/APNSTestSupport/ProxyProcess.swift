import APNSCore
import APNSPlatform
import Foundation

/// A real proxy from the distribution, run as a child process for end-to-end tests: `tinyproxy`
/// (HTTP CONNECT, optional BasicAuth) or `microsocks` (SOCKS5, optional user and password), on a free
/// loopback port, stopped when the value goes away. `scripts/deps.sh` installs both.
public final class ProxyProcess: @unchecked Sendable {
    /// Which proxy and how it is set up.
    public enum Kind: Sendable {
        /// tinyproxy allowing CONNECT to `connectPorts` from 127.0.0.1; BasicAuth when `credentials` are given.
        case tinyproxy(connectPorts: [Int], credentials: (user: String, password: String)?)
        /// microsocks, requiring `credentials` when given.
        case microsocks(credentials: (user: String, password: String)?)
    }

    public let port: Int
    public let directory: TemporaryDirectory
    private let process: Process

    /// The proxy's own log (tinyproxy writes one line per CONNECT); empty for microsocks.
    public var log: String { (try? String(contentsOfFile: directory.file("proxy.log"), encoding: .utf8)) ?? "" }

    /// How many CONNECT requests tinyproxy logged (`Request (file descriptor N): CONNECT host:port`).
    public var connectRequests: Int { log.split(separator: "\n").filter { $0.contains("): CONNECT ") }.count }

    /// Starts the proxy and waits up to 10 s until it accepts connections.
    public init(_ kind: Kind) throws {
        directory = try TemporaryDirectory(prefix: "proxy")
        port = try Self.freePort()
        process = Process()
        switch kind {
        case .tinyproxy(let ports, let credentials):
            var config = """
                Port \(port)
                Listen 127.0.0.1
                Timeout 120
                MaxClients 100
                LogFile "\(directory.file("proxy.log"))"
                LogLevel Connect
                PidFile "\(directory.file("proxy.pid"))"
                Allow 127.0.0.1

                """
            for p in ports { config += "ConnectPort \(p)\n" }
            if let credentials { config += "BasicAuth \(credentials.user) \(credentials.password)\n" }
            let file = try directory.write("tinyproxy.conf", config)
            process.executableURL = URL(fileURLWithPath: try Self.find("tinyproxy"))
            process.arguments = ["-d", "-c", file]
        case .microsocks(let credentials):
            process.executableURL = URL(fileURLWithPath: try Self.find("microsocks"))
            process.arguments =
                ["-i", "127.0.0.1", "-p", String(port)]
                + (credentials.map { ["-u", $0.user, "-P", $0.password] } ?? [])
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let name = process.executableURL?.lastPathComponent ?? "proxy"
        try process.runAsAShellWould()
        let listening = Wait.until(seconds: 10, interval: 0.02) { [process] in
            (try? Socket.connect(host: "127.0.0.1", port: port, timeout: 1)) != nil || !process.isRunning
        }
        if listening && process.isRunning { return }
        stop()
        throw TestSupportError(
            "\(name) did not listen on port \(port) within 10 s")
    }

    /// The URL a client passes, with credentials when given.
    public func url(scheme: String, user: String? = nil, password: String? = nil) -> String {
        let info = user.map { u in password.map { "\(u):\($0)@" } ?? "\(u)@" } ?? ""
        return "\(scheme)://\(info)127.0.0.1:\(port)"
    }

    /// A loopback port nothing listens on right now, below Linux's ephemeral range (32768–60999): the
    /// kernel never hands it to another test's `listen(port: 0)` or outgoing connection, so a proxy
    /// started on it cannot collide with the servers other tests start in parallel.
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if (try? Socket.listen(host: "127.0.0.1", port: port)) != nil { return port }
        }
        throw TestSupportError("no free loopback port between 20000 and 32000")
    }

    /// The installed binary (daemons live in /usr/sbin on some systems, which is not always on PATH).
    static func find(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin"] {
            if FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        }
        throw TestSupportError("\(name) is not installed; run make deps (scripts/deps.sh installs it)")
    }

    /// Stops the proxy with SIGKILL (see `MockProcess.stop`).
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
