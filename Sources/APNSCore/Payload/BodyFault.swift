/// What APNs itself checks on a request body, in its own terms, so the mock answers exactly
/// as the validator would judge the same bytes (APNS.md §9 step 7, in that order).
public enum BodyFault: Sendable, Equatable {
    /// No bytes at all.
    case empty
    /// More bytes than the push type's limit.
    case tooLarge(size: Int, limit: Int)
    /// Not JSON (a mock-only answer; APNs' reaction is undocumented).
    case notJSON(JSONSyntaxError)
    /// JSON, but not an object at the top level.
    case notObject

    /// The APNs reason to answer with.
    public var reason: APNSReason {
        switch self {
        case .empty: return .payloadEmpty
        case .tooLarge: return .payloadTooLarge
        case .notJSON, .notObject: return .badRequestPayload
        }
    }

    /// A one-line explanation for logs.
    public var message: String {
        switch self {
        case .empty: return "payload is empty"
        case .tooLarge(let size, let limit): return "payload is \(size) bytes, over the \(limit)-byte limit"
        case .notJSON(let e): return "payload is not valid JSON: \(e)"
        case .notObject: return "payload is not a JSON object"
        }
    }
}

/// The mock's entry point: the checks APNs itself makes on a body.
extension PayloadValidator {
    /// The first body fault APNs (or the mock) would answer for, or nil when the body passes.
    /// `sizeLimit` nil means the push type's default (4096, 5120 for voip).
    public static func bodyFault(_ body: [UInt8], pushType: PushType, sizeLimit: Int? = nil) -> BodyFault? {
        if body.isEmpty { return .empty }
        let limit = sizeLimit ?? pushType.defaultSizeLimit
        if body.count > limit { return .tooLarge(size: body.count, limit: limit) }
        do {
            let root = try JSONReader.parse(body)
            return root.isObject ? nil : .notObject
        } catch {
            return .notJSON(error)
        }
    }
}
