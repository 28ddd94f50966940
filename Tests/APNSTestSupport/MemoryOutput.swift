import APNSPlatform
import Foundation

/// Standard output in memory, for commands run in-process: what an `OutputSink` writes to it is kept, and it
/// can be told to fail like a full disk (`ENOSPC`) or a reader that went away (`EPIPE`) once it holds `limit`
/// bytes, so the sink's checks and exit 74 are tested without /dev/full or a pipe.
public final class MemoryOutput: OutputDestination {
    private struct State {
        var bytes: [UInt8] = []
        var limit: Int?
        var code: Int32 = ENOSPC
        var writes = 0
    }
    private let state = LockedValue(State())

    /// A buffer that takes everything, or fails with `code` once it holds `limit` bytes.
    public init(failingAfter limit: Int? = nil, with code: Int32 = ENOSPC) {
        state.withLock {
            $0.limit = limit
            $0.code = code
        }
    }

    public func write(_ bytes: [UInt8]) -> (written: Int, error: Int32?) {
        state.withLock { s in
            s.writes += 1
            let room = s.limit.map { max(0, $0 - s.bytes.count) } ?? bytes.count
            let n = min(room, bytes.count)
            s.bytes += bytes[..<n]
            return (n, n < bytes.count ? s.code : nil)
        }
    }

    public func close() -> Int32? { nil }

    /// Everything written.
    public var bytes: [UInt8] { state.withLock { $0.bytes } }
    /// Everything written, as UTF-8.
    public var text: String { String(decoding: state.withLock { $0.bytes }, as: UTF8.self) }
    /// Its lines (without the last newline).
    public var lines: [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
    /// How many writes reached it (a buffered sink writes seldom).
    public var writeCount: Int { state.withLock { $0.writes } }

    /// A sink named `standard output` writing here.
    public func sink() -> OutputSink { OutputSink(destination: self, name: "standard output") }
}

/// Standard error in memory: every message a `MessageStream` writes, in order.
public final class MemoryMessages: Sendable {
    private let bytes = LockedValue<[UInt8]>([])

    public init() {}

    /// The stream to hand to the command.
    public var stream: MessageStream { MessageStream { chunk in self.append(chunk) } }

    /// Keeps `chunk` as if the stream had written it (for a stream that also writes elsewhere).
    public func append(_ chunk: [UInt8]) { bytes.withLock { $0 += chunk } }

    public var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
    public var lines: [String] { text.split(separator: "\n").map(String.init) }
}
