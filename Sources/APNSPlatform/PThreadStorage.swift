#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Heap memory for one pthread object (`pthread_mutex_t`, `pthread_cond_t`): such an object must never move
/// once initialised, and Swift gives stored properties no stable address, so `Lock` and `Condition` keep
/// theirs here.
enum PThreadStorage {
    /// Allocates and initialises one object with `initialise` (`pthread_mutex_init`…); a failure is a broken
    /// invariant (default attributes, no resource limit applies), not something input can cause.
    static func make<T>(_ blank: T, _ initialise: (UnsafeMutablePointer<T>) -> Int32) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: blank)
        let rc = initialise(pointer)
        precondition(rc == 0, "initialising a \(T.self) failed: \(rc)")
        return pointer
    }

    /// Destroys with `destroy` (`pthread_mutex_destroy`…) and frees what `make` returned.
    static func free<T>(_ pointer: UnsafeMutablePointer<T>, _ destroy: (UnsafeMutablePointer<T>) -> Int32) {
        _ = destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
