import Foundation

/// Waiting for an event a test cannot be told about (a log line, a file, a socket's state) by polling it,
/// bounded by a deadline generous enough for a loaded machine: never a fixed sleep that assumes it happened.
public enum Wait {
    /// Polls `condition` every `interval` seconds until it holds or `seconds` passed; whether it held.
    @discardableResult
    public static func until(seconds: Double = 20, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows
        -> Bool
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return try condition()
    }
}
