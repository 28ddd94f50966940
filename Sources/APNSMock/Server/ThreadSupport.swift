import APNSCore

/// A pthread mutex: event-loop threads share a few counters.
final class MockLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}

/// A joinable OS thread running one closure: the event loops need real threads (no Foundation, no async runtime).
final class MockThread: @unchecked Sendable {
    private var handle = pthread_t()
    private var started = false
    private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    /// Starts `body` on a new thread; false when the system refused one.
    func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            box.body()
            return nil
        }, box)
        if rc != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        started = true
        return true
    }

    /// Waits for the thread to end (once).
    func join() {
        guard started else { return }
        started = false
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own, unwaited (one stuck in a system call the process no longer cares about).
    func detach() {
        guard started else { return }
        started = false
        pthread_detach(handle)
    }
}

/// A pipe whose read end becomes readable, for every poller at once, when `signal()` writes one byte.
/// Nobody reads the byte, so the level stays up: one write wakes every event loop, and signal handlers
/// may call `signal()` (write(2) is async-signal-safe).
final class WakePipe: @unchecked Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws(MockServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .resources("cannot create a pipe: \(FileSystem.errnoText())") }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = posixWrite(writeFD, &byte, 1)
    }

    var isSignalled: Bool { Poll.wait(fd: readFD, events: Poll.readable, timeoutMs: 0) != .timeout }
}
