import APNSCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Host name lookups that end by a deadline and give way to a signal. `getaddrinfo` has neither: a
/// resolver that never answers would hold `send` past `--timeout` and swallow Ctrl-C. So the lookup runs
/// on a thread of its own while the caller waits on a pipe, the interrupt descriptor and the clock; a
/// lookup that is abandoned finishes (or not) on its own, and its answer is dropped.
enum Resolver {
    /// The addresses of `host:port`: at once for an IP literal, else from `resolver` within `deadline`
    /// (monotonic ns). `timeout` is only for the message.
    static func lookUp(
        host: String, port: Int, deadline: UInt64, timeout: Double,
        interruptFD: Int32?, using resolver: NameLookup
    ) throws(SocketError) -> [SocketAddress] {
        if let literal = try? Socket.resolveAll(host: host, port: port, numericOnly: true) { return literal }
        guard let lookup = Lookup() else { return try resolver.addresses(host, port) }
        let thread = OSThread()
        guard thread.start({ lookup.run(host: host, port: port, using: resolver) }) else {
            return try resolver.addresses(host, port)
        }
        thread.detach()
        var poller = PollSet()
        poller.add(lookup.wake.readFD, .readable)
        while true {
            if let answer = lookup.answer { return try answer.get() }
            guard SystemClock.monotonicNanoseconds() < deadline else {
                throw .resolve(host: host, failure: .noAnswer(within: timeout))
            }
            if poller.wait(until: deadline, interrupt: interruptFD) == .interrupted { throw .interrupted }
        }
    }

    /// One lookup's answer and the pipe that says it is there; shared by the waiting caller and the
    /// thread, and closed when the last of them lets go.
    private final class Lookup: Sendable {
        let wake: WakePipe
        private let result = LockedValue<Result<[SocketAddress], SocketError>?>(nil)

        init?() {
            guard let wake = WakePipe() else { return nil }
            self.wake = wake
        }

        var answer: Result<[SocketAddress], SocketError>? { result.withLock { $0 } }

        func run(host: String, port: Int, using resolver: NameLookup) {
            let found: Result<[SocketAddress], SocketError>
            do { found = .success(try resolver.addresses(host, port)) } catch { found = .failure(error) }
            result.withLock { $0 = found }
            wake.signal()
        }
    }
}
