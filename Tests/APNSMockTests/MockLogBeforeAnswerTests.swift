import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

@testable import APNSMock

/// CLI.md: the mock's log is written before the answer, so a script may read the log right after `send`
/// returns. Each send below is followed at once by one read of the log, with no retry: the line must already
/// be there, while h2load keeps the same mock busy on other connections.
/// One at a time (`oneAtATime`): each loads the machine with h2load.
@Suite struct MockLogBeforeAnswerTests {
    static let oneAtATime = OneAtATime()

    /// A device token unique to request `i`, so each answer's line is told from the load's.
    static func device(_ i: Int) -> String {
        String(format: "%064x", 0xC0FFEE_0000 + i)
    }

    /// Whether `log` has the `answered` line of `device`.
    static func hasAnswer(_ log: String, for device: String) -> Bool {
        log.split(separator: "\n").contains {
            $0.contains(#""event":"answered""#) && $0.contains(#""device":"\#(device)""#)
        }
    }

    /// h2load against `mock` with a valid bearer token, in the background: bounded in time (120 s, ended when the
    /// test ends) and in rate (1,000 requests a second per connection, enough that the log writer always has lines queued).
    static func startLoad(on mock: MockHarness) throws -> Process {
        let load = Process()
        load.executableURL = URL(fileURLWithPath: try CommandRunner.which("h2load"))
        load.arguments = [
            "-D", "120", "-c", "2", "-m", "10", "--rps", "1000",
            "-H", "authorization: bearer \(try mock.token())", "-H", "apns-topic: com.example.demo",
            "-d", mock.directory.file("payload.json"), mock.endpoint + "/3/device/" + MockHarness.device,
        ]
        load.standardOutput = FileHandle.nullDevice
        load.standardError = FileHandle.nullDevice
        try load.runAsAShellWould()
        return load
    }

    @Test func everyAnswerFindsItsLineInTheLogFileUnderLoad() async throws {
        try await offThePool(Self.oneAtATime) {
            let mock = try MockHarness(log: true)
            let load = try Self.startLoad(on: mock)
            defer {
                // SIGKILL: how h2load stops is not under test, and it ends at once.
                kill(load.processIdentifier, SIGKILL)
                load.waitUntilExit()
            }
            let log = try FileHandle(forReadingFrom: URL(fileURLWithPath: mock.directory.file("log.jsonl")))
            defer { try? log.close() }
            var missing: [Int] = []
            for i in 0..<200 {
                let device = Self.device(i)
                #expect(try mock.curl(path: "/3/device/" + device).status == 200)
                // One read of what was written since the last answer (the load writes thousands of lines a second);
                // an `answered` line has the topic right after the device, a `received` line ends there.
                let written = log.readDataToEndOfFile()
                if written.range(of: Data(#""device":"\#(device)","topic""#.utf8)) == nil { missing.append(i) }
            }
            #expect(missing.isEmpty, "answers whose log line was not yet written: \(missing)")
            #expect(load.isRunning, "the load ran for the whole test")
        }
    }

    @Test func aPipeReaderFindsTheLineAlreadyInThePipe() async throws {
        try await offThePool(Self.oneAtATime) {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            defer {
                close(fds[0])
                close(fds[1])
            }
            // The reader never waits: whatever the mock wrote before answering is already in the pipe.
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            let mock = try MockHarness(logDescriptor: fds[1])
            var received = ""
            var buffer = [UInt8](repeating: 0, count: 65536)
            for i in 0..<50 {
                let device = Self.device(i)
                #expect(try mock.curl(path: "/3/device/" + device).status == 200)
                while true {
                    let n = read(fds[0], &buffer, buffer.count)
                    guard n > 0 else { break }
                    received += String(decoding: buffer[0..<n], as: UTF8.self)
                }
                #expect(Self.hasAnswer(received, for: device), "answer \(i) came before its log line")
            }
        }
    }
}
