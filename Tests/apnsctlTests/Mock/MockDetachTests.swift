import APNSTestSupport
import Foundation
import Testing

/// `apnsctl mock --detach` and `apnsctl mock stop` (CLI.md, `apnsctl mock`): a script starts the mock, sends
/// and stops it with no wait of its own, as a CI job does; the process is the subject, so the built binary runs.
@Suite struct MockDetachTests {
    static let device = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

    /// Whether process `pid` still runs: gone, or a zombie its new parent has not reaped yet, is not.
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return kill(pid, 0) == 0
        }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test func aScriptDetachesSendsAndStopsWithNoSleep() async throws {
        try await offThePool {
            let state = try TemporaryDirectory(prefix: "detach")
            let script = """
                set -e
                endpoint=$("$0" mock --detach --port 0 --state-dir "$1" 2> "$1/ready.txt")
                echo "endpoint: $endpoint"
                APNSCTL_MOCK_STATE_DIR="$1" "$0" send -p mock-token --alert Hello -d \(Self.device)
                "$0" mock stop --state-dir "$1"
                """
            let r = try CommandRunner.run(
                "/bin/sh", ["-c", script, CommandRunner.apnsctlPath, state.path],
                environment: ["XDG_CACHE_HOME": state.file("cache"), "XDG_CONFIG_HOME": state.file("config")])
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            // The endpoint is the one line on stdout, the one the ready line names.
            let printed = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(printed.count == 3 && printed[1].hasPrefix("accepted  200  3f2a…9c1d"), "\(r.stdout)")
            let endpoint = String(printed[0].dropFirst("endpoint: ".count))
            #expect(endpoint.hasPrefix("https://127.0.0.1:") && Int(endpoint.dropFirst(18)) != nil, "\(r.stdout)")
            #expect(r.stderr.hasPrefix("apnsctl mock: stopped the mock of \(state.path) (pid "), "\(r.stderr)")

            let ready = try String(contentsOfFile: state.file("ready.txt"), encoding: .utf8)
            #expect(ready.hasPrefix("apnsctl mock: ready on \(endpoint) (sandbox); "), "\(ready)")
            #expect(ready.contains("apnsctl mock: profiles: -p mock (its certificate) or -p mock-token"))
            let last = try #require(ready.split(separator: "\n").last.map(String.init))
            #expect(
                last.hasPrefix("apnsctl mock: running in the background as pid ")
                    && last.hasSuffix(
                        "logging to \(state.path)/mock.log; stop it with: apnsctl mock stop --state-dir \(state.path)"),
                "\(last)")
            let pid = try #require(Int32(last.split(separator: " ")[8].dropLast()), "\(last)")
            // `mock stop` returned once the mock had exited: no process, no mock.json naming it.
            #expect(!Self.alive(pid))
            #expect(!FileManager.default.fileExists(atPath: state.file("mock.json")))
            let log = try String(contentsOfFile: state.file("mock.log"), encoding: .utf8)
            #expect(log.contains(#""event":"answered""#) && log.contains(#""auth":"token""#), "\(log)")

            // A log that cannot be written is the mock's stderr too: `mock stop` says what was lost, and exits 74
            // as the mock did (CLI.md), once. The log fills up under a file size limit the shell sets for the mock
            // alone (its credentials made first, by a mock without the limit), as a full disk would.
            let full = try TemporaryDirectory(prefix: "detach-full")
            let devices = (0..<4).flatMap { ["-d", String(format: "3f2a%060x", $0)] }.joined(separator: " ")
            let lost = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c",
                    """
                    set -e
                    "$0" mock --detach --port 0 --state-dir "$1" > /dev/null 2>&1
                    "$0" mock stop --state-dir "$1" 2> /dev/null
                    (ulimit -f 1; exec "$0" mock --detach --port 0 --state-dir "$1" --log "$1/small.log") > /dev/null 2>&1
                    APNSCTL_MOCK_STATE_DIR="$1" "$0" send -p mock-token --alert Hello -q \(devices)
                    status=0
                    "$0" mock stop --state-dir "$1" || status=$?
                    "$0" mock stop --state-dir "$1"
                    mknod "$1/full" c 1 7
                    "$0" mock --detach --port 0 --state-dir "$1" --log "$1/full" > /dev/null 2>&1
                    APNSCTL_MOCK_STATE_DIR="$1" "$0" send -p mock-token --alert Hello -q \(devices)
                    pid=$(cat "$1/mock.lock")
                    kill -TERM "$pid"
                    tail --pid="$pid" -f /dev/null
                    killed=0
                    "$0" mock stop --state-dir "$1" 2> "$1/killed.txt" || killed=$?
                    echo "stopped by kill, then mock stop: $killed"
                    exit $status
                    """, CommandRunner.apnsctlPath, full.path,
                ],
                environment: ["XDG_CACHE_HOME": full.file("cache"), "XDG_CONFIG_HOME": full.file("config")])
            #expect(lost.status == 74, "\(lost.stdout)\(lost.stderr)")
            #expect(
                lost.stdout == "sent 4: 4 accepted\nsent 4: 4 accepted\nstopped by kill, then mock stop: 74\n",
                "\(lost.stdout)")
            // Stopped by someone else's SIGTERM, the mock's last words wait in the state dir for `mock stop`.
            let killed = try String(contentsOfFile: full.file("killed.txt"), encoding: .utf8)
            #expect(
                killed.hasPrefix(
                    "apnsctl mock: no mock is running with state dir \(full.path); the detached mock that ran there stopped with:\nerror: apnsctl mock: writing its log: No space left on device; "
                ), "\(killed)")
            let said = lost.stderr.split(separator: "\n").map(String.init)
            #expect(said.count == 3, "\(lost.stderr)")
            #expect(said.first?.hasPrefix("apnsctl mock: stopped the mock of \(full.path) (pid ") == true)
            let error = said.dropFirst().first ?? ""
            #expect(
                error.hasPrefix("error: apnsctl mock: writing its log: File too large; ")
                    && error.hasSuffix(" notification log lines were not written"), "\(lost.stderr)")
            #expect(said.last == "apnsctl mock: no mock is running with state dir \(full.path)")
        }
    }

    @Test func aMockThatCannotStartOrPrintIsItsOwnErrorAndExitCode() async throws {
        try await offThePool {
            let state = try TemporaryDirectory(prefix: "detach-fail")
            let busy = try TemporaryDirectory(prefix: "detach-busy")
            let first = try CommandRunner.run(
                CommandRunner.apnsctlPath, ["mock", "--detach", "--port", "0", "--state-dir", busy.path])
            #expect(first.status == 0, "\(first.stderr)")
            defer { _ = try? CommandRunner.run(CommandRunner.apnsctlPath, ["mock", "stop", "--state-dir", busy.path]) }
            let ready = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: busy.file("mock.json"))))
            let endpoint = try #require((ready as? [String: Any])?["endpoint"] as? String)
            let port = try #require(endpoint.split(separator: ":").last.map(String.init))
            #expect(first.stdout == endpoint + "\n", "\(first.stdout)")

            let second = try CommandRunner.run(
                CommandRunner.apnsctlPath, ["mock", "--detach", "--port", port, "--state-dir", state.path])
            #expect(second.status == 69, "\(second.stderr)")
            #expect(second.stderr.hasPrefix("error: "), "\(second.stderr)")
            #expect(second.stderr.contains(port))
            #expect(second.stdout.isEmpty, "\(second.stdout)")
            // The same state dir twice: the second is refused with the first one's pid, as without --detach.
            let again = try CommandRunner.run(
                CommandRunner.apnsctlPath, ["mock", "--detach", "--port", "0", "--state-dir", busy.path])
            #expect(again.status == 73, "\(again.stderr)")
            #expect(again.stderr.contains("state dir in use by apnsctl mock (pid"), "\(again.stderr)")
            // Said to the user only: the running mock's log (JSON lines scripts read) holds no line of it.
            let log = (try? String(contentsOfFile: busy.file("mock.log"), encoding: .utf8)) ?? ""
            #expect(!log.contains("state dir in use"), "\(log)")

            // Started, but its endpoint cannot be printed: exit 74 (CLI.md), saying that it runs on and how to stop it.
            // Its stdout is a full-disk device made for the test (as /dev/full is), never a real /dev entry.
            let device = try TemporaryDirectory(prefix: "detach-device")
            let full = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c", #"mknod "$2" c 1 7 && "$0" mock --detach --port 0 --state-dir "$1" > "$2""#,
                    CommandRunner.apnsctlPath, state.path, device.file("full"),
                ])
            #expect(full.status == 74, "\(full.stderr)")
            let last = try #require(full.stderr.split(separator: "\n").last.map(String.init))
            #expect(
                last.hasPrefix("error: writing standard output: No space left on device; the mock runs on as pid ")
                    && last.hasSuffix("(stop it with: apnsctl mock stop --state-dir \(state.path))"), "\(full.stderr)")
            let stop = try CommandRunner.run(CommandRunner.apnsctlPath, ["mock", "stop", "--state-dir", state.path])
            #expect(stop.status == 0 && stop.stderr.hasPrefix("apnsctl mock: stopped the mock of"), "\(stop.stderr)")
        }
    }

    /// No process is started or stopped here: the command runs in-process.
    @Test func stopWithNoMockRunningSaysSoAndExits0() throws {
        let state = try TemporaryDirectory(prefix: "detach-none")
        let r = try InProcess.apnsctl(["mock", "stop", "--state-dir", state.path])
        #expect(r.status == 0)
        #expect(r.stderr == "apnsctl mock: no mock is running with state dir \(state.path)\n")
        // And it wrote nothing there: no mock.lock left in a folder no mock ever used.
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
        let log = try InProcess.apnsctl(["mock", "--log", "x.log"])
        #expect(log.status == 64)
        #expect(log.stderr.contains("--log is where a detached mock writes its log; add --detach"), "\(log.stderr)")
    }
}
