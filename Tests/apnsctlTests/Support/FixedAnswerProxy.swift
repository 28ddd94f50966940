import APNSPlatform
import APNSTestSupport
import Foundation

/// A proxy that answers each of `connections` CONNECT requests with `answer` (a status line of our choosing,
/// hostile bytes included) and tunnels nothing: for tests of how a proxy's words are printed. It waits for each
/// client and each request with a deadline, never for a fixed time.
final class FixedAnswerProxy: @unchecked Sendable {
    let port: Int
    private let thread: Thread

    init(answer: String, connections: Int = 1) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        let bytes = Array(answer.utf8)
        thread = Thread {
            for _ in 0..<connections {
                guard let client = Self.accept(listener) else { return }
                Self.readRequest(from: client)
                _ = client.send(bytes[...])
                Self.waitForClose(of: client)
            }
        }
        thread.start()
    }

    /// The next client, waiting up to 10 s.
    private static func accept(_ listener: Socket) -> Socket? {
        var client: Socket?
        Wait.until(seconds: 10, interval: 0) {
            client = listener.accept()
            if client == nil { readable(listener) }
            return client != nil
        }
        return client
    }

    /// Waits until `socket` has something to read (a client, bytes, the end), at most 50 ms between looks.
    private static func readable(_ socket: Socket) {
        _ = PollSet.wait(for: socket.fd, .readable, until: SystemClock.monotonicNanoseconds() + 50_000_000)
    }

    /// Keeps the connection until the client closes it (up to 2 s), so the answer is read before ours ends.
    private static func waitForClose(of client: Socket) {
        Wait.until(seconds: 2, interval: 0) {
            switch client.receive(limit: 4096).0 {
            case .closed, .failed: return true
            case .wouldBlock:
                readable(client)
                return false
            case .bytes: return false
            }
        }
    }

    /// Reads up to the blank line that ends a CONNECT request, waiting up to 5 s.
    private static func readRequest(from client: Socket) {
        var request: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        Wait.until(seconds: 5, interval: 0) {
            let (_, bytes) = client.receive(limit: 4096)
            request += bytes
            if bytes.isEmpty { readable(client) }
            return request.count >= 4 && Array(request.suffix(4)) == end
        }
    }
}
