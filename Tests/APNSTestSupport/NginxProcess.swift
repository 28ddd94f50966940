import APNSPlatform
import Foundation

/// nginx, a server this project did not write, in front of `Tests/Interop/late_backend.py` (which logs each
/// request when it arrives and answers `delay` seconds later): HTTP/2 with TLS and client certificates on a
/// free loopback port, the way an APNs-like front end sits before the service that does the work. The
/// backend's log is what the server received, so a request sent twice shows as a device logged twice.
/// `scripts/deps.sh` installs nginx-light.
public final class NginxProcess: @unchecked Sendable {
    public let port: Int
    public let backendPort: Int
    public let directory: TemporaryDirectory
    private var master: Process
    private let backend: Process

    /// The streams nginx allows in flight on one connection (its SETTINGS_MAX_CONCURRENT_STREAMS), which is
    /// what `send` keeps in flight by default.
    public static let maxConcurrentStreams = 128

    /// Starts the backend, then nginx (one worker, at most `maxConcurrentStreams` streams per connection, GOAWAY
    /// after `requestsPerConnection` requests), with `certificates` (`server.pem` holding the server certificate
    /// and key, `ca.pem` trusted for client certificates) in `certificateDirectory`. The backend answers `delay`
    /// seconds after each arrival, or, `holdingAnswers`, not before `releaseAnswers()`: then every request
    /// logged before a fault is one the fault caught in flight, on a fast machine or a loaded one.
    public init(
        certificateDirectory: String, delay: Double = 0, holdingAnswers: Bool = false,
        requestsPerConnection: Int = 1000
    ) throws {
        directory = try TemporaryDirectory(prefix: "nginx")
        chmod(directory.path, 0o755)  // the worker runs as another user when nginx starts as root
        port = try ProxyProcess.freePort()
        backendPort = try ProxyProcess.freePort()
        _ = try directory.write("arrivals.log", "")
        backend = Process()
        backend.executableURL = URL(fileURLWithPath: try TestPython.plain())
        backend.arguments = [
            Repository.path("Tests/Interop/late_backend.py"), String(backendPort),
            directory.file("arrivals.log"), holdingAnswers ? "hold" : String(delay),
        ]
        backend.standardOutput = FileHandle.nullDevice
        backend.standardError = FileHandle.nullDevice
        try backend.runAsAShellWould()
        let d = directory.path
        let config = """
            \(getuid() == 0 ? "user root;" : "")
            worker_processes 1;
            daemon off;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log info;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(d)/body;
                proxy_temp_path \(d)/proxy;
                fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi;
                scgi_temp_path \(d)/scgi;
                keepalive_requests \(requestsPerConnection);
                http2_max_concurrent_streams \(Self.maxConcurrentStreams);
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificateDirectory)/server.pem;
                    ssl_certificate_key \(certificateDirectory)/server.pem;
                    ssl_client_certificate \(certificateDirectory)/ca.pem;
                    ssl_verify_client on;
                    location / {
                        proxy_pass http://127.0.0.1:\(backendPort);
                        proxy_http_version 1.1;
                        proxy_read_timeout 60s;
                    }
                }
            }

            """
        _ = try directory.write("nginx.conf", config)
        master = Process()
        try waitFor(backendPort, process: backend, name: "the test backend")
        try start()
    }

    /// Starts nginx (again, after `crash` or `stop`) on the same port and waits until it accepts connections.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ProxyProcess.find("nginx"))
        process.arguments = [
            "-c", directory.file("nginx.conf"), "-p", directory.path, "-e", directory.file("error.log"),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsAShellWould()
        master = process
        try waitFor(port, process: process, name: "nginx")
    }

    private func waitFor(_ port: Int, process: Process, name: String) throws {
        let listening = Wait.until(seconds: 10, interval: 0.02) {
            (try? Socket.connect(host: "127.0.0.1", port: port, timeout: 1)) != nil || !process.isRunning
        }
        if listening && process.isRunning { return }
        throw TestSupportError(
            "\(name) did not listen on port \(port) within 10 s: \((try? directory.read("error.log")) ?? "")")
    }

    /// The URL a client sends to.
    public var endpoint: String { "https://127.0.0.1:\(port)" }

    /// The worker processes' ids (children of the master).
    public var workers: [Int32] {
        let r = try? CommandRunner.run("pgrep", ["-P", String(master.processIdentifier)])
        return (r?.lines ?? []).compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Kills the worker with SIGKILL, as a crash would, and waits until it is gone: its connections drop with
    /// requests in flight. The master starts a new worker.
    public func killWorker() {
        let workers = self.workers
        for pid in workers { kill(pid, SIGKILL) }
        waitUntilGone(workers)
    }

    /// Kills master and worker with SIGKILL: nothing listens until `start`.
    public func crash() {
        let workers = self.workers
        kill(master.processIdentifier, SIGKILL)
        for pid in workers { kill(pid, SIGKILL) }
        master.waitUntilExit()
        waitUntilGone(workers)
    }

    /// nginx's fast shutdown (SIGTERM, as `nginx -s stop`): open connections are closed at once.
    public func stop() {
        let workers = self.workers
        kill(master.processIdentifier, SIGTERM)
        master.waitUntilExit()
        waitUntilGone(workers)
    }

    /// Waits (at most 2 s) until `pids` are dead; a zombie counts as dead (a container's init may never reap it).
    private func waitUntilGone(_ pids: [Int32]) {
        func alive(_ pid: Int32) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            guard let close = stat.lastIndex(of: ")") else { return false }
            return !stat[close...].hasPrefix(") Z")
        }
        Wait.until(seconds: 2) { !pids.contains(where: alive) }
    }

    /// Lets a backend started `holdingAnswers` answer every request it holds, and every later one at once.
    public func releaseAnswers() {
        guard backend.isRunning else { return }
        kill(backend.processIdentifier, SIGUSR1)
    }

    /// Stops the backend: nginx then answers every request itself, with its own HTML error page (502).
    public func stopBackend() {
        guard backend.isRunning else { return }
        kill(backend.processIdentifier, SIGKILL)
        backend.waitUntilExit()
    }

    /// The request paths the backend received, in arrival order (whole lines only: a line being written is
    /// not counted until its newline is there).
    public var arrivals: [String] {
        let text = (try? directory.read("arrivals.log")) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().filter { !$0.isEmpty }.map(
            String.init)
    }

    /// Device → how many times it reached the backend.
    public var arrivalsPerDevice: [String: Int] {
        var counts: [String: Int] = [:]
        for path in arrivals { counts[String(path.split(separator: "/").last ?? ""), default: 0] += 1 }
        return counts
    }

    deinit {
        if master.isRunning {
            let workers = self.workers
            kill(master.processIdentifier, SIGKILL)
            for pid in workers { kill(pid, SIGKILL) }
        }
        if backend.isRunning { kill(backend.processIdentifier, SIGKILL) }
    }
}
