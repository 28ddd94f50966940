/// The validator's verdict on one payload: every problem, the size against the limit, and the
/// push type it was judged as (given or inferred), which `send` then puts in `apns-push-type`.
public struct ValidationReport: Sendable {
    /// Problems in source order (whole-payload ones first).
    public let problems: [ValidationProblem]
    /// Bytes of the payload's `body` (what would be sent).
    public let size: Int
    /// The byte limit applied.
    public let limit: Int
    /// The push type, given or inferred.
    public let pushType: PushType

    /// Makes a report; the validator is the usual source.
    public init(problems: [ValidationProblem], size: Int, limit: Int, pushType: PushType) {
        self.problems = problems
        self.size = size
        self.limit = limit
        self.pushType = pushType
    }

    /// Any error; with `strict`, warnings were already turned into errors by the validator.
    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// The errors only.
    public var errors: [ValidationProblem] { problems.filter { $0.severity == .error } }

    /// The warnings only.
    public var warnings: [ValidationProblem] { problems.filter { $0.severity == .warning } }
}
