import Foundation

/// Runs a test's blocking body (one that waits for child processes, sockets or timeouts) on a thread of its own
/// instead of the concurrency pool. Swift Testing runs every test on that pool, which has as many threads as the
/// machine has cores: on a 2-core machine two tests waiting for a child process stop every other test from
/// starting. The body stays in its test's task (`withTaskExecutorPreference`), so `#expect` still reports to
/// that test.
///
///     @Test func slow() async throws { try await offThePool { try theBlockingSteps() } }
public func offThePool<T>(_ body: () throws -> T) async throws -> T {
    // Older macOS has no task executors: the body runs where the test does.
    guard #available(macOS 15.0, *) else { return try body() }
    return try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try body() }
}

/// A task executor that runs each job on a new thread, for jobs that block (see `offThePool`).
@available(macOS 15.0, *)
public final class ThreadPerJobExecutor: TaskExecutor {
    public static let shared = ThreadPerJobExecutor()

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        // Room for deep test stacks (a JSON walk, a TLS handshake), as the main thread has.
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Tests that must not overlap one another (they share a proxy, a terminal's signals, or load the machine),
/// run one at a time by holding one gate on their own threads. `@Suite(.serialized)` did this by starting
/// each test only once the one before had ended, and that hand-off waits for a thread of the shared pool:
/// behind a thousand short tests, the chain of them ran last, on an idle machine.
///
///     static let oneAtATime = OneAtATime()
///     @Test func a() async throws { try await offThePool(Self.oneAtATime) { … } }
public final class OneAtATime: Sendable {
    private let lock = NSLock()

    public init() {}

    fileprivate func holding<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// `offThePool(body)`, holding `gate` while the body runs.
public func offThePool<T>(_ gate: OneAtATime, _ body: () throws -> T) async throws -> T {
    try await offThePool { try gate.holding(body) }
}
