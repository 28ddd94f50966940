import APNSPlatform
import APNSTestSupport
import Foundation

/// An `ObservedMock` whose first answer waits, on the mock's loop, until the test lets it go: a run is known to be
/// under way (its list checked, its first request in) while the test changes something around it.
final class HeldAnswerMock: Sendable {
    let mock: ObservedMock
    private let reached = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init() throws {
        let first = LockedValue(true)
        let (reached, released) = (reached, released)
        mock = try ObservedMock { configuration in
            configuration.onAnswer = { _ in
                let isFirst = first.withLock { was in
                    defer { was = false }
                    return was
                }
                guard isFirst else { return }
                reached.signal()
                released.wait()
            }
        }
    }

    /// Whatever the test did, the mock's loop is let go (a second signal is never waited for).
    deinit { released.signal() }

    /// Waits (at most 60 s) until the first answer is held.
    func waitForTheFirstAnswer() -> Bool { reached.wait(timeout: .now() + 60) == .success }

    /// Lets the held answer go.
    func release() { released.signal() }

    /// `send` to this mock with its certificate, plus `arguments`.
    func send(_ arguments: [String]) -> [String] {
        ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificateFile] + arguments
    }
}
