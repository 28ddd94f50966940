#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A joinable OS thread running one closure: the mock's event loops and log writer need real threads, and
/// apnsctl uses neither Foundation nor an async runtime. `pthread_t` is an integer on Glibc and a pointer on
/// Darwin; that difference stays in this file.
public final class OSThread: Sendable {
    /// The handle while the thread is started and neither joined nor detached (each must happen once).
    private let handle = LockedValue<Handle?>(nil)

    public init() {}

    /// Starts `body` on a new thread; false when the system refused one or this thread was already started.
    public func start(_ body: sending @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let started = handle.withLock { current -> Bool in
            guard current == nil, let created = Handle.create(box) else { return false }
            current = created
            return true
        }
        if !started { Unmanaged<Box>.fromOpaque(box).release() }
        return started
    }

    /// Waits for the thread to end (once; later calls return at once).
    public func join() {
        guard let h = take() else { return }
        pthread_join(h.thread, nil)
    }

    /// Lets the thread end on its own, unwaited (one stuck in a system call the process no longer cares about).
    public func detach() {
        guard let h = take() else { return }
        pthread_detach(h.thread)
    }

    private func take() -> Handle? {
        handle.withLock { current in
            defer { current = nil }
            return current
        }
    }

    /// The closure, carried through `pthread_create`'s `void *` argument.
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// A started thread's `pthread_t`.
    private struct Handle: @unchecked Sendable {
        let thread: pthread_t

        /// `pthread_create` running the `Box` at `box` (consumed by the thread); nil when it failed.
        static func create(_ box: UnsafeMutableRawPointer) -> Handle? {
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    let argument: UnsafeMutableRawPointer? = raw
                    guard let argument else { return nil }
                    Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
                    return nil
                }, box)
            guard rc == 0 else { return nil }
            #if canImport(Darwin)
                guard let thread else { return nil }
            #endif
            return Handle(thread: thread)
        }
    }
}
