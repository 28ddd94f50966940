import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": while keys are loaded the process is not dumpable and writes no core file. A send
/// holding a `.p8` key waits on a mock that never answers; it is then killed with SIGSEGV under
/// `ulimit -c unlimited` (and the Swift runtime's crash handler off, which would otherwise swallow a SIGSEGV
/// sent by kill). No system setting is changed: the kernel's `core_pattern` is only read.
@Suite struct CoreDumpTests {
    /// Where the kernel writes cores, when that is a file in the crashing process's folder (`core`,
    /// `core.%p`): the test can look for it there. nil for a pipe (systemd-coredump) or an absolute path.
    static var localCorePattern: String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8) else {
            return nil
        }
        let pattern = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if pattern.isEmpty || pattern.hasPrefix("|") || pattern.contains("/") { return nil }
        return pattern
    }

    /// The soft and hard "Max core file size" of a running process, from /proc/PID/limits.
    static func coreLimit(pid: Int32) -> String? {
        guard let bytes = try? FileSystem.read("/proc/\(pid)/limits"),
            case let text = String(decoding: bytes, as: UTF8.self),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") })
        else { return nil }
        return line.dropFirst("Max core file size".count).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// Whether `pid` is apnsctl (not the sh or setpriv before it) connected to `port` over TCP: it connects only
    /// after its key is loaded. Sockets inherited from the test runner do not count.
    static func isConnected(pid: Int32, port: Int) -> Bool {
        guard
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("/apnsctl")
                ?? false
        else { return false }
        let hex = String(port, radix: 16, uppercase: true)
        let portHex = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        var inodes: Set<String> = []
        for table in ["tcp", "tcp6"] {
            // Read to the end: Foundation stops early on /proc files, which report a size of 0.
            let text = String(decoding: (try? FileSystem.read("/proc/\(pid)/net/\(table)")) ?? [], as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                if columns.count > 9, columns[2].hasSuffix(":" + portHex) { inodes.insert(String(columns[9])) }
            }
        }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
            else { return false }
            return inodes.contains { target == "socket:[\($0)]" }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/limits"), "reads /proc (Linux)"))
    func aSendKilledWithSIGSEGVWhileHoldingAKeyLeavesNoCoreAndIsNotDumpable() throws {
        let mock = try InProcessMock(["--fault-never-answer"])
        let work = try TemporaryDirectory(prefix: "core")
        // As another user when root: the kernel then shows "not dumpable" by giving /proc/PID to root.
        let asOther = OtherUser.isAvailable
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: work.path)
        let authKey = work.file("AuthKey_\(mock.keyID).p8")
        let caFile = work.file("ca.pem")
        try FileManager.default.copyItem(atPath: mock.authKey, toPath: authKey)
        try FileManager.default.copyItem(atPath: mock.caFile, toPath: caFile)
        for file in [authKey, caFile] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestPython.plain())
        let user = asOther ? ["setpriv"] + OtherUser.prefix() : []
        // `ulimit -c unlimited`, and the signals the test runner blocks unblocked (else SIGSEGV would wait);
        // python and setpriv exec, so the pid is apnsctl's.
        let launcher =
            "import os, resource, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "signal.signal(signal.SIGSEGV, signal.SIG_DFL); "
            + "resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)); "
            + "os.execvp(sys.argv[1], sys.argv[1:])"
        process.arguments =
            ["-c", launcher] + user + [
                CommandRunner.apnsctlPath, "send", "--endpoint", mock.endpoint, "--ca-file", caFile, "--auth-key",
                authKey,
                "--team-id", mock.teamID, "--topic", mock.bundleID, "-d", String(repeating: "5e", count: 32), "--alert",
                "hi",
                "--no-token-cache", "--timeout", "60",
            ]
        process.currentDirectoryURL = URL(fileURLWithPath: work.path)
        BinaryStarts.record()
        // The Swift runtime's crash handler would catch a SIGSEGV sent by kill and carry on; without it the
        // kernel's default action (a core file) applies, as for a program built with backtracing off.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsAShellWould()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        let pid = process.processIdentifier

        let port = Int(mock.endpoint.split(separator: ":").last ?? "") ?? 0
        Wait.until(interval: 0.02) { Self.isConnected(pid: pid, port: port) || !process.isRunning }
        #expect(Self.isConnected(pid: pid, port: port), "the send never connected to the mock")
        #expect(Self.coreLimit(pid: pid) == "0 0", "RLIMIT_CORE is \(Self.coreLimit(pid: pid) ?? "?")")
        if asOther {
            // A dumpable process's /proc/PID/status belongs to its user; a non-dumpable one's to root.
            #expect(OtherUser.ownerAndMode("/proc/\(pid)/status")?.uid == 0, "/proc/\(pid)/status shows it dumpable")
        }

        kill(pid, SIGSEGV)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV)
        if let pattern = Self.localCorePattern {
            let stem = pattern.split(separator: "%").first.map(String.init) ?? pattern
            let cores = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(stem) }
            #expect(cores.isEmpty, "core file left: \(cores)")
        }
    }
}
