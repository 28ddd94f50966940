import APNSCrypto

/// What a pump reads into: an HTTP/2 session (or, for the mock's HTTP/1.1-only fault, whatever stands in).
public protocol HTTP2Input: AnyObject {
    associatedtype ReceiveFailure: Error
    /// Takes bytes read from the peer.
    func receive(_ bytes: UnsafeRawBufferPointer) throws(ReceiveFailure)
}

/// What a pump writes from: serialised frames, produced on demand and lent to the transport.
public protocol HTTP2Output: AnyObject {
    /// Serialises queued frames until `limit` bytes are pending; true when bytes are pending. An nghttp2
    /// failure throws: the session is then unusable.
    func prepareOutput(upTo limit: Int) throws(NGHTTP2Error) -> Bool
    /// Lends the pending bytes to `write`, which returns how many it took (possibly 0).
    func withPendingOutput<E: Error>(_ write: (UnsafeRawBufferPointer) throws(E) -> Int) throws(E)
    /// Whether bytes are pending (call `prepareOutput` first to fill them).
    var hasPendingOutput: Bool { get }
}

/// The one TLS↔HTTP/2 driver of client and mock: read into the session, produce output with a back-pressure
/// limit, flush until the socket blocks, and say what the socket wants and how the peer ended. It never waits:
/// the caller polls (the client with its deadline, the mock in its event loop) and decides what a result means.
public enum HTTP2Pump {
    /// Output is gathered up to this size before it is handed to TLS: fewer, larger TLS records.
    public static let outputChunk = 64 * 1024

    /// What one read did.
    public enum Read<Failure: Error> {
        /// This many bytes were handed to the input.
        case received(Int)
        /// Nothing to read now; call again when the socket is readable (or writable, for a TLS renegotiation
        /// step that must write first).
        case wouldBlock(wantsWritable: Bool)
        /// The peer ended the stream; `TLSConnection.peerClose` says how.
        case closed
        /// Reading failed (a broken TLS record, a socket error).
        case failed(TLSFailure)
        /// The input rejected the bytes (an HTTP/2 protocol violation by the peer).
        case rejected(Failure)
    }

    /// What one flush did.
    public enum Flush {
        /// Everything produced was written.
        case done
        /// The socket is full; call again when it is writable.
        case blocked
        /// Writing failed or the peer closed.
        case failed
        /// nghttp2 failed while producing frames; what was produced before was written as far as possible.
        case outputFailed(NGHTTP2Error)
    }

    /// Reads one chunk from `tls` into `buffer` and hands it to `input`.
    public static func read<I: HTTP2Input>(from tls: TLSConnection, into input: I, buffer: inout [UInt8]) -> Read<
        I.ReceiveFailure
    > {
        let read: Result<TLSStep, TLSFailure> = buffer.withUnsafeMutableBytes { p in
            do throws(TLSFailure) { return .success(try tls.read(into: p)) } catch { return .failure(error) }
        }
        let step: TLSStep
        switch read {
        case .success(let s): step = s
        case .failure(let e): return .failed(e)
        }
        switch step {
        case .wantRead: return .wouldBlock(wantsWritable: false)
        case .wantWrite: return .wouldBlock(wantsWritable: true)
        case .closed: return .closed
        case .bytes(let n):
            let fed: Result<Void, I.ReceiveFailure> = buffer.withUnsafeBytes { p in
                do throws(I.ReceiveFailure) {
                    return .success(try input.receive(UnsafeRawBufferPointer(rebasing: p[0..<n])))
                } catch { return .failure(error) }
            }
            if case .failure(let e) = fed { return .rejected(e) }
            return .received(n)
        }
    }

    /// Writes what `output` has pending to `tls`, producing more chunk by chunk while `produce`, until all is
    /// written or the socket blocks.
    public static func flush<O: HTTP2Output>(_ output: O, to tls: TLSConnection, produce: Bool = true) -> Flush {
        while true {
            if !output.hasPendingOutput {
                guard produce else { return .done }
                do {
                    if try !output.prepareOutput(upTo: outputChunk) { return .done }
                } catch {
                    return .outputFailed(error)
                }
            }
            var result: Flush? = nil
            output.withPendingOutput { (bytes) -> Int in
                do {
                    switch try tls.write(bytes) {
                    case .bytes(let n): return n
                    case .wantRead, .wantWrite: result = .blocked
                    case .closed: result = .failed
                    }
                } catch {
                    result = .failed
                }
                return 0
            }
            if let result { return result }
        }
    }
}
