import APNSPlatform
import APNSTestSupport
import Foundation

/// `apnsctl` by name, for a shell script a test runs (a printed curl block takes its JWT from `apnsctl jwt`, or
/// converts a legacy `.p12` with `apnsctl convert`), run by the test process: a stand-in `apnsctl`, first on the
/// script's `PATH`, writes its arguments, variables and working directory to a folder, names the folder on a FIFO
/// this object reads, and waits; the call runs through `InProcess.apnsctl`, and the stand-in prints its standard
/// output and error and exits with its status. The script still runs in a real shell and finds `apnsctl` by name;
/// what the call prints is what the command prints. Standard input is not passed on: the calls a block makes read
/// none, and a pasted block's input is the rest of the block.
final class ApnsctlByName: @unchecked Sendable {
    /// The folder holding the stand-in `apnsctl`, the FIFO and the calls' folders.
    let directory: String
    private let requests: Int32
    private let reader = DispatchSemaphore(value: 0)
    private let made = LockedValue<[[String]]>([])
    private let stopped = LockedValue(false)

    /// The arguments of each call the scripts made, in order.
    var calls: [[String]] { made.current }

    init(in parent: TemporaryDirectory) throws {
        let name = "apnsctl-by-name-" + UUID().uuidString.prefix(8)
        directory = parent.file(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = directory + "/requests"
        guard mkfifo(fifo, 0o600) == 0 else { throw TestSupportError("mkfifo \(fifo): errno \(errno)") }
        // Read and write: the FIFO then never reads as ended between two stand-ins.
        requests = open(fifo, O_RDWR | O_CLOEXEC)
        guard requests >= 0 else { throw TestSupportError("open \(fifo): errno \(errno)") }
        _ = try parent.write(name + "/apnsctl", Self.standIn(directory), mode: 0o755)
        // The thread holds what it uses, not `self`, so dropping the object stops it.
        let (requests, made, reader) = (requests, made, reader)
        let thread = Thread {
            Self.serve(requests, made)
            reader.signal()
        }
        thread.start()
    }

    deinit { stop() }

    /// `PATH` for a script: `first`, the stand-in, then the test's own `PATH` (which does not hold the binary).
    func searchPath(first: [String] = []) -> String {
        (first + [directory, ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":")
    }

    /// Ends the reader (an empty request line) and closes the FIFO; calls made later fail with status 70.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = "\n".withCString { write(requests, $0, 1) }
        reader.wait()
        close(requests)
    }

    /// The stand-in: a POSIX shell script with `directory` written into it.
    private static func standIn(_ directory: String) -> String {
        #"""
        #!/bin/sh
        # apnsctl run by the test process (ApnsctlByName): this call's arguments, variables and working directory go
        # to it through a FIFO; its standard output, error and status come back.
        call=$(mktemp -d '\#(directory)/call.XXXXXX') || exit 70
        for argument in "$@"; do printf '%s\0' "$argument"; done > "$call/arguments"
        env -0 > "$call/environment"
        pwd > "$call/directory"
        mkfifo "$call/status" || exit 70
        exec 3<>"$call/status"
        printf '%s\n' "$call" >> '\#(directory)/requests'
        read -r status <&3 || status=70
        exec 3<&-
        cat "$call/stdout"
        cat "$call/stderr" >&2
        rm -rf "$call"
        exit "$status"

        """#
    }

    /// Reads request lines until the empty one `stop` writes, answering each in turn.
    private static func serve(_ requests: Int32, _ made: LockedValue<[[String]]>) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(requests, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                if line.isEmpty { return }
                answer(line, made)
            }
        }
    }

    /// Runs one call in-process and hands its output and status to the waiting stand-in.
    private static func answer(_ call: String, _ made: LockedValue<[[String]]>) {
        func fields(_ name: String) -> [String] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: call + "/" + name))).map { Array($0) } ?? []
            return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        let arguments = fields("arguments")
        var environment: [String: String] = [:]
        for entry in fields("environment") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let directory = (try? String(contentsOfFile: call + "/directory", encoding: .utf8))?
            .trimmingCharacters(in: .newlines)
        made.withLock { $0.append(arguments) }
        let status: Int32
        if let result = try? InProcess.apnsctl(arguments, environment: environment, directory: directory) {
            _ = FileManager.default.createFile(atPath: call + "/stdout", contents: Data(result.stdoutBytes))
            _ = FileManager.default.createFile(atPath: call + "/stderr", contents: Data(result.stderr.utf8))
            status = result.timedOut ? 124 : result.status
        } else {
            _ = FileManager.default.createFile(atPath: call + "/stdout", contents: Data())
            _ = FileManager.default.createFile(atPath: call + "/stderr", contents: Data("apnsctl did not run\n".utf8))
            status = 70
        }
        // The stand-in holds its end open for reading, so this open does not wait; a stand-in already gone is ENXIO.
        let answer = open(call + "/status", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard answer >= 0 else { return }
        _ = "\(status)\n".withCString { write(answer, $0, strlen($0)) }
        close(answer)
    }
}
