import APNSCore

/// One HTTP/2 request to APNs, whatever it is for: a device push, a broadcast, a channel operation.
/// The sender moves these without knowing which; the builders (`PushRequest`, and the broadcast and
/// channel requests) decide the method, path, headers and body.
public struct APNSRequest: Sendable, Equatable {
    /// `POST`, `GET`, `DELETE`, `HEAD`.
    public var method: String
    /// `/3/device/<hex>`, `/4/broadcasts/apps/<bundle id>`, …
    public var path: String
    /// Every field but the pseudo-headers, in wire order. Shared between the requests of one batch
    /// (an array is copied only when changed), so a million devices cost one list.
    public var headers: [HeaderField]
    /// The body, byte for byte (shared the same way).
    public var body: [UInt8]

    /// A request from its parts.
    public init(method: String, path: String, headers: [HeaderField], body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The full field list for `authority`, pseudo-headers first (`--verbose`, `--dry-run`, tests).
    public func fields(authority: String) -> [HeaderField] {
        [
            HeaderField(":method", method), HeaderField(":scheme", "https"), HeaderField(":authority", authority),
            HeaderField(":path", path, neverIndex: true),
        ] + headers
    }
}

/// What a result is about: the device a push went to, or the broadcast channel.
public enum PushTarget: Sendable, Hashable {
    case device(DeviceToken)
    case channel(String)

    /// The device, for device pushes.
    public var device: DeviceToken? {
        if case .device(let d) = self { return d }
        return nil
    }

    /// The whole token or channel id, as a user acts on it.
    public var text: String {
        switch self {
        case .device(let d): return d.hex
        case .channel(let c): return c
        }
    }

    /// A device token shortened for lines that need no action (`3f2a…9c1d`); channel ids whole.
    public var abbreviated: String {
        switch self {
        case .device(let d): return d.abbreviated
        case .channel(let c): return c
        }
    }
}

/// One request with what its result will be about.
public struct PushJob: Sendable {
    public var target: PushTarget
    public var request: APNSRequest
    /// Its place in the input (0 for the first device), for output that follows the input's order.
    public var position: Int? = nil

    public init(target: PushTarget, request: APNSRequest, position: Int? = nil) {
        self.target = target
        self.request = request
        self.position = position
    }
}

/// Yields the requests of a batch one at a time, so a million-line `--devices` file never sits in
/// memory: the sender pulls the next only when a stream is free.
public protocol RequestSource: AnyObject {
    /// The next request, or nil when there are no more.
    func next() -> PushJob?
    /// The descriptor `next()` would now wait on, nil when it would not (`DeviceSource.descriptorToWaitFor`).
    func descriptorToWaitFor() -> Int32?
}

extension RequestSource {
    /// Requests made in memory never keep `next()` waiting.
    public func descriptorToWaitFor() -> Int32? { nil }
}

/// The same push to every device a `DeviceSource` yields.
public final class DevicePushSource: RequestSource {
    private let devices: DeviceSource
    private let method: String
    private let headers: [HeaderField]
    private let body: [UInt8]
    private var taken = 0

    /// `request`'s push to each of `devices`.
    public init(_ request: PushRequest, devices: DeviceSource) {
        self.devices = devices
        let template = request.request(for: nil)
        method = template.method
        headers = template.headers
        body = template.body
    }

    /// The device list's.
    public func descriptorToWaitFor() -> Int32? { devices.descriptorToWaitFor() }

    /// The next device's request.
    public func next() -> PushJob? {
        guard let d = devices.next() else { return nil }
        defer { taken += 1 }
        return PushJob(
            target: .device(d),
            request: APNSRequest(method: method, path: PushRequest.path(for: d), headers: headers, body: body),
            position: taken)
    }
}

/// A fixed list of requests (one channel operation, several broadcasts, tests).
public final class RequestListSource: RequestSource {
    private let jobs: [PushJob]
    private var index = 0

    /// Yields `jobs` in order.
    public init(_ jobs: [PushJob]) { self.jobs = jobs }

    /// The next job, nil when done.
    public func next() -> PushJob? {
        guard index < jobs.count else { return nil }
        defer { index += 1 }
        return jobs[index]
    }
}
