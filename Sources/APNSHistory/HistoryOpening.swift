import APNSPlatform

/// The history being opened on a thread of its own (the folder and file checked, the layout brought up to date)
/// while the send connects, so that work is off the send's path. `store()` waits for it; a system that gives no
/// thread opens it there and then.
public final class HistoryOpening: Sendable {
    private let opening: BackgroundResult<Result<HistoryStore?, HistoryProblem>>

    /// Starts opening the history in `directory`, creating it when missing (see `HistoryStore.open`).
    public init(directory: String) {
        opening = BackgroundResult { Self.open(directory) }
    }

    /// The open history (nil when there is none to keep), once the thread is done.
    public func store() throws(HistoryProblem) -> HistoryStore? { try opening.value().get() }

    private static func open(_ directory: String) -> Result<HistoryStore?, HistoryProblem> {
        do { return .success(try HistoryStore.open(directory: directory, create: true)) } catch {
            return .failure(error)
        }
    }
}
