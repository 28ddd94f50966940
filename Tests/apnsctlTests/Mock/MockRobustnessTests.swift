import APNSCore
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// Hostile or careless clients against `apnsctl mock`: whatever they do, the others keep being served
/// and the mock neither crashes nor spins.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: "/proc/self/fd"),
        "reads thread states from Linux /proc")) struct MockRobustnessTests
{
    /// The state of each of `pid`'s threads (`R` running or runnable, `S` asleep…, Linux /proc); empty once it is gone.
    static func threadStates(_ pid: Int32) -> [Character] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            // /proc files report size 0: read to the end rather than by size.
            guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/task/\(tid)/stat")?.readDataToEndOfFile(),
                let stat = String(data: data, encoding: .utf8), let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's closing parenthesis: a space, then the state.
            return stat[stat.index(after: close)...].dropFirst().first
        }
    }

    @Test func runningOutOfDescriptorsNeitherSpinsNorStopsService() async throws {
        try await offThePool {
            let mock = try RunningMock(openFileLimit: 48)
            let pid = try #require(mock.ready["pid"] as? Int).asPID
            let port = try #require(Int(mock.endpoint.split(separator: ":").last ?? ""))
            // More idle connections than descriptors: the rest wait in the listen backlog.
            var held: [Socket] = []
            for _ in 0..<100 { held.append(try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)) }
            // The event: the mock found accept(2) failing for want of descriptors, and said so.
            #expect(
                Wait.until(seconds: 20) {
                    mock.stderr.contains("warning: apnsctl mock: cannot accept more connections")
                },
                "\(mock.stderr)")
            // Not spinning: with connections still waiting to be accepted, every thread of the mock is seen asleep on
            // 25 reads in a row. A loop retrying accept(2) (or polling a listener it cannot serve) is running or
            // runnable nearly always and is never seen so; the deadline only bounds a failing test.
            var asleepInARow = 0
            let settled = Wait.until(seconds: 20, interval: 0.01) {
                let states = Self.threadStates(pid)
                asleepInARow = !states.isEmpty && states.allSatisfy { $0 != "R" } ? asleepInARow + 1 : 0
                return asleepInARow >= 25
            }
            #expect(settled, "the mock kept running while out of descriptors: \(Self.threadStates(pid))")
            held.removeAll()
            #expect(try mock.curl().status == 200)
        }
    }

    @Test func garbageAndHalfHandshakesDoNotDisturbOthers() async throws {
        try await offThePool {
            let mock = try RunningMock()
            let port = try #require(Int(mock.endpoint.split(separator: ":").last ?? ""))
            var rng = SystemRandomNumberGenerator()
            for i in 0..<40 {
                let s = try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
                // Random bytes, then a ClientHello cut short, each closed at once.
                let bytes: [UInt8] =
                    i % 2 == 0
                    ? (0..<2000).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    : [0x16, 0x03, 0x01, 0x02, 0x00, 0x01]
                        + (0..<40).map { _ in UInt8.random(in: 0...255, using: &rng) }
                _ = bytes.withUnsafeBytes { send(s.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            #expect(try mock.curl().status == 200)
            #expect(mock.terminate() == 0, "\(mock.stderr)")
        }
    }
}

extension Int {
    fileprivate var asPID: Int32 { Int32(truncatingIfNeeded: self) }
}
