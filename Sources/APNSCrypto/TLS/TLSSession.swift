internal import COpenSSL

/// A TLS session a client resumes on its next connection to the same server (with the same context): the
/// server's certificate and the client's were checked when it was made, so a resumed handshake repeats neither
/// (one round trip, no certificate decoding or signing on either side). Kept in memory by one sender only.
/// An owned `SSL_SESSION`: reference-counted by OpenSSL, never changed once made (a connection that gets newer
/// tickets makes new sessions), so one may be handed to the thread that opens the next connection.
public final class TLSSession: @unchecked Sendable {
    let pointer: OpaquePointer

    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { SSL_SESSION_free(pointer) }
}
