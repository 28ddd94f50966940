import APNSHTTP2

/// The HTTP/1.1-only fault's side of the pump, in place of an HTTP/2 session: whatever bytes arrive, one
/// HTTP/1.1 error goes back.
final class HTTP1VersionRefusal: HTTP2Input, HTTP2Output {
    typealias ReceiveFailure = Never

    private var answer: [UInt8] = []
    private var offset = 0

    func receive(_ bytes: UnsafeRawBufferPointer) {}

    /// Queues `505 HTTP Version Not Supported`.
    func queueAnswer() {
        answer = Array("HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".utf8)
        offset = 0
    }

    func prepareOutput(upTo limit: Int) -> Bool { hasPendingOutput }

    func withPendingOutput<E: Error>(_ write: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E) {
        guard hasPendingOutput else { return }
        let start = offset
        let outcome: Result<Int, E> = answer.withUnsafeBytes { all in
            do throws(E) { return .success(try write(UnsafeRawBufferPointer(rebasing: all[start...]))) } catch {
                return .failure(error)
            }
        }
        offset += min(answer.count - offset, max(0, try outcome.get()))
    }

    var hasPendingOutput: Bool { offset < answer.count }
}
