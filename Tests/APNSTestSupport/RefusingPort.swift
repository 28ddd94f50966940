import APNSPlatform
import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A loopback port where a connection is refused, held for as long as the value lives: a socket bound to it that
/// never listens. A port found by listening and closing again is free for anyone: the kernel hands it to the
/// next `listen(port: 0)`, and a test that connected there found another test's TLS server (or its own mock)
/// instead of a refusal. A bound port is never handed out while it is bound.
public final class RefusingPort: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(FileSystem.errnoText())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = FileSystem.errnoText()
            close(fd)
            throw TestSupportError("binding a loopback port: \(reason)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
