import APNSCore
import APNSPlatform

/// A new provider token for the rest of a run once the one it has is `maximumAge` old. APNs refuses a token
/// issued over an hour ago, and a run can outlast it: a list streamed from a pipe has no end in sight, and a
/// cached token may be 50 minutes old when the run starts. Every request written from then on carries the new
/// token, resends included; those already written keep theirs, minutes younger than the hour. `sign` makes
/// each new token at the time it is given (never one from a cache), so tokens on a connection are `maximumAge`
/// apart, more than APNs' 20 minutes between updates.
public final class ProviderTokenRenewal: Sendable {
    /// The age (seconds) at which a new token is asked for.
    private let maximumAge: Int64
    private let now: @Sendable () -> Int64
    private let sign: @Sendable (Int64) -> String?
    private let state: LockedValue<State>

    private struct State {
        /// When the token requests now carry was issued (UNIX seconds).
        var issuedAt: Int64
        /// When the next token is asked for (UNIX seconds).
        var due: Int64
        /// `bearer <token>` once a new token was made; nil until then (requests go as they were made).
        var header: String? = nil
        /// The header list last seen with the old token, and the same list with the new one: a batch's requests
        /// share one list, so they share the renewed one too.
        var renewed: (old: [HeaderField], new: [HeaderField])? = nil
    }

    /// A token issued at `issuedAt` (UNIX seconds), renewed by `sign` (a token issued at the time it is given;
    /// nil keeps the old one and asks again a minute later) once `now()` is `maximumAge` past it; one call at a
    /// time.
    public init(
        issuedAt: Int64, maximumAge: Int64, now: @escaping @Sendable () -> Int64,
        sign: @escaping @Sendable (Int64) -> String?
    ) {
        self.maximumAge = maximumAge
        self.now = now
        self.sign = sign
        state = LockedValue(State(issuedAt: issuedAt, due: issuedAt + maximumAge))
    }

    /// When the token requests now carry was issued (UNIX seconds): the first one's time until a new one is made.
    /// A refusal is dated by it (`ClockAdvice`).
    public var issuedAt: Int64 { state.withLock { $0.issuedAt } }

    /// `request` with the current token in its `authorization` header (a new one made first if it is due); as it
    /// is while the first token serves, and when it carries no bearer token.
    func renewing(_ request: APNSRequest) -> APNSRequest {
        state.withLock { state in
            let time = now()
            if time >= state.due {
                if let fresh = sign(time) {
                    state.issuedAt = time
                    state.due = time + maximumAge
                    state.header = HeaderField.bearerScheme + fresh
                    state.renewed = nil
                } else {
                    state.due = time + 60
                }
            }
            guard let current = state.header else { return request }
            let headers = request.headers
            if let renewed = state.renewed, renewed.old == headers { return with(renewed.new, request) }
            guard let index = headers.firstIndex(where: { $0.name == APNSHeader.authorization.name }),
                headers[index].value.hasPrefix(HeaderField.bearerScheme), headers[index].value != current
            else { return request }
            var new = headers
            new[index] = HeaderField(headers[index].name, current, neverIndex: headers[index].neverIndex)
            state.renewed = (headers, new)
            return with(new, request)
        }
    }

    private func with(_ headers: [HeaderField], _ request: APNSRequest) -> APNSRequest {
        var request = request
        request.headers = headers
        return request
    }
}
