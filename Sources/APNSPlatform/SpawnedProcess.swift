#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// A child started with `posix_spawn(2)` from an argument vector (never through a shell), the one place both
/// kinds of child (`ChildProcess`, a program waited for; `DetachedProcess`, a background mock) are made and
/// waited for.
public struct SpawnedProcess: Sendable {
    public let pid: Int32

    /// Where one of the child's descriptors comes from.
    public enum Source: Sendable {
        /// The file at the path, opened with these flags (and mode, when created).
        case file(String, flags: Int32, mode: FileMode)
        /// A copy of one of this process's descriptors.
        case descriptor(Int32)
    }

    /// Starts `executable` (a path) with `arguments` (without the program name), `environment` (this
    /// process's own when nil) and `descriptors` set up in the child; the `errno` value when it could not start.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String]?, descriptors: [(Int32, Source)]
    ) -> Result<SpawnedProcess, SpawnError> {
        let actions: SpawnFileActions
        let attributes: SpawnAttributes
        do {
            actions = try SpawnFileActions()
            for (target, source) in descriptors { try actions.add(source, as: target) }
            attributes = try SpawnAttributes()
        } catch {
            return .failure(error)
        }
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer {
            for p in argv + (envp ?? []) { free(p) }
        }
        var pid = pid_t()
        let result = actions.withPointer { actions in
            attributes.withPointer { attributes in
                if let envp {
                    return posix_spawn(&pid, executable, actions, attributes, argv + [nil], envp + [nil])
                }
                return posix_spawn(&pid, executable, actions, attributes, argv + [nil], environ)
            }
        }
        guard result == 0 else { return .failure(SpawnError(code: result)) }
        return .success(SpawnedProcess(pid: pid))
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it (-1 when it cannot be
    /// waited for: already reaped, or not our child).
    public func waitForExit() -> Int32 { Self.reap(pid) }

    /// Waits for the child to end, killing it with SIGKILL if it still runs after `seconds`: its exit status as
    /// `waitForExit`, and whether it had to be killed. A thread blocks in `waitpid(2)` and wakes the caller when
    /// the kernel reports the end, so nothing polls.
    public func waitForExit(killingAfter seconds: Double) -> (status: Int32, killed: Bool) {
        let status = WaitableValue<Int32?>(nil)
        let reaper = OSThread()
        let pid = self.pid
        guard
            reaper.start({
                let code = Self.reap(pid)
                status.withLock { $0 = code }
                status.signal()
            })
        else { return (Self.reap(pid), false) }
        defer { reaper.join() }
        let deadline = Condition.deadline(afterMilliseconds: Int(seconds * 1000))
        if let code = status.wait(while: { $0 == nil }, until: deadline, then: { value, _ in value }) {
            return (code, false)
        }
        kill(pid, SIGKILL)
        return (status.wait(while: { $0 == nil }, then: { value, _ in value ?? -1 }), true)
    }

    /// Blocks in `waitpid` until `pid` ends; its exit status, or 128 + the signal that ended it (-1 when it
    /// cannot be waited for: already reaped, or not our child).
    private static func reap(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return exitCode(status)
    }

    /// The wait status's layout is the same on Linux and Darwin: the signal in the low 7 bits, else the code.
    static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

/// Why `posix_spawn` refused: its `errno` value.
public struct SpawnError: Error, Sendable {
    public let code: Int32
    public var text: String { FileSystem.errnoText(code) }
}

/// A `posix_spawn_file_actions_t`, destroyed with its owner.
private final class SpawnFileActions {
    #if canImport(Darwin)
        // Darwin's file actions are an opaque pointer that init fills in.
        private var actions: posix_spawn_file_actions_t? = nil
    #else
        private var actions = posix_spawn_file_actions_t()
    #endif

    /// Fails (ENOMEM) when the actions cannot be made; a failed init leaves nothing to destroy.
    init() throws(SpawnError) {
        let code = posix_spawn_file_actions_init(&actions)
        guard code == 0 else {
            initialised = false
            throw SpawnError(code: code)
        }
    }

    private var initialised = true

    deinit { if initialised { posix_spawn_file_actions_destroy(&actions) } }

    /// Fails when the action cannot be recorded (EBADF for a descriptor out of range, ENOMEM).
    func add(_ source: SpawnedProcess.Source, as target: Int32) throws(SpawnError) {
        let code: Int32
        switch source {
        case .file(let path, let flags, let mode):
            code = posix_spawn_file_actions_addopen(&actions, target, path, flags, mode_t(mode))
        case .descriptor(let fd):
            code = posix_spawn_file_actions_adddup2(&actions, fd, target)
        }
        guard code == 0 else { throw SpawnError(code: code) }
    }

    #if canImport(Darwin)
        func withPointer<T>(_ body: (UnsafePointer<posix_spawn_file_actions_t?>) -> T) -> T { body(&actions) }
    #else
        func withPointer<T>(_ body: (UnsafePointer<posix_spawn_file_actions_t>) -> T) -> T { body(&actions) }
    #endif
}

/// A `posix_spawnattr_t` that starts a child as a shell would: no signal blocked (a thread's mask is inherited
/// through exec, and this process's threads may block some) and SIGPIPE and SIGXFSZ at their default actions
/// (this process ignores them for itself; an ignored signal stays ignored across exec, so a child writing to a
/// pipe whose reader left would loop on EPIPE instead of ending as programs expect). Destroyed with its owner.
private final class SpawnAttributes {
    #if canImport(Darwin)
        private var attributes: posix_spawnattr_t? = nil
    #else
        private var attributes = posix_spawnattr_t()
    #endif

    /// Fails with the first setter's error (ENOMEM from init; EINVAL, which these arguments never give), so a
    /// child never starts with attributes half set.
    init() throws(SpawnError) {
        var code = posix_spawnattr_init(&attributes)
        guard code == 0 else {
            initialised = false
            throw SpawnError(code: code)
        }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGXFSZ)
        code = posix_spawnattr_setsigmask(&attributes, &none)
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &defaults) }
        if code == 0 {
            code = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        guard code == 0 else { throw SpawnError(code: code) }
    }

    private var initialised = true

    deinit { if initialised { posix_spawnattr_destroy(&attributes) } }

    #if canImport(Darwin)
        func withPointer<T>(_ body: (UnsafePointer<posix_spawnattr_t?>) -> T) -> T { body(&attributes) }
    #else
        func withPointer<T>(_ body: (UnsafePointer<posix_spawnattr_t>) -> T) -> T { body(&attributes) }
    #endif
}
