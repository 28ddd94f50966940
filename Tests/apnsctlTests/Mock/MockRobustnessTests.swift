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
        "reads CPU time and open descriptors from Linux /proc")) struct MockRobustnessTests
{
    /// User plus system CPU time of `pid` in seconds (Linux /proc).
    static func cpuSeconds(_ pid: Int32) -> Double {
        // /proc files report size 0: read to the end rather than by size.
        guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/stat")?.readDataToEndOfFile(),
            let stat = String(data: data, encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func runningOutOfDescriptorsNeitherSpinsNorStopsService() throws {
        let mock = try RunningMock(openFileLimit: 48)
        let pid = try #require(mock.ready["pid"] as? Int).asPID
        let port = try #require(Int(mock.endpoint.split(separator: ":").last ?? ""))
        // More idle connections than descriptors: the rest wait in the listen backlog.
        var held: [Socket] = []
        for _ in 0..<100 { held.append(try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)) }
        // Wait until the mock holds every descriptor it may have, so accept(2) fails from here on.
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline,
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0 < 47
        {
            usleep(20_000)
        }
        usleep(100_000)
        let before = Self.cpuSeconds(pid)
        #expect(before >= 0)
        usleep(1_000_000)
        let spent = Self.cpuSeconds(pid) - before
        #expect(spent < 0.3, "the mock used \(spent) s of CPU in 1 s while out of descriptors")
        #expect(mock.stderr.contains("warning: apnsctl mock: cannot accept more connections"))
        held.removeAll()
        #expect(try mock.curl().status == 200)
    }

    @Test func garbageAndHalfHandshakesDoNotDisturbOthers() throws {
        let mock = try RunningMock()
        let port = try #require(Int(mock.endpoint.split(separator: ":").last ?? ""))
        var rng = SystemRandomNumberGenerator()
        for i in 0..<40 {
            let s = try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
            // Random bytes, then a ClientHello cut short, each closed at once.
            let bytes: [UInt8] =
                i % 2 == 0
                ? (0..<2000).map { _ in UInt8.random(in: 0...255, using: &rng) }
                : [0x16, 0x03, 0x01, 0x02, 0x00, 0x01] + (0..<40).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = bytes.withUnsafeBytes { send(s.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        #expect(try mock.curl().status == 200)
        let (status, seconds) = mock.terminate()
        #expect(status == 0)
        #expect(seconds < RunningMock.stopBound, "took \(seconds) s")
    }
}

extension Int {
    fileprivate var asPID: Int32 { Int32(truncatingIfNeeded: self) }
}
