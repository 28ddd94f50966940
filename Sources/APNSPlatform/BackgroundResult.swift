/// A value made on a thread of its own while the caller gets on with something else, handed whole to the one
/// caller of `value()`. No lock is needed: the thread writes the value before it ends, and `pthread_join` (in
/// `value()`) orders that write before the read; the thread never touches the value again. That ordering is
/// why it may be `@unchecked Sendable` though `Value` need not be.
public final class BackgroundResult<Value>: @unchecked Sendable {
    private let thread = OSThread()
    private var made: Value?
    private let make: @Sendable () -> Value

    /// Starts `make` on a new thread; when the system gives none, it runs here and now.
    public init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        if !thread.start({ [self] in made = make() }) { made = make() }
    }

    deinit { thread.join() }

    /// The value, once the thread has ended. Call it from one thread.
    public func value() -> Value {
        thread.join()
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
