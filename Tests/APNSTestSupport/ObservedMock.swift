import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform

/// `MockServer` in the test process with an answer observer: the one fault injector for the sender's
/// tests. It counts every answer per device, so a test proves from the server's side that nothing it
/// answered was sent again, and the built binary or the in-process sender can be pointed at it.
public final class ObservedMock: Sendable {
    public let directory: TemporaryDirectory
    public let state: MockState
    /// The state dir's lock, held while this mock runs (nil when it shares another's state).
    private let stateLock: FileLock?
    public let server: MockServer
    public let port: Int
    private let answers = LockedValue([String: Int]())
    private let connections = LockedValue(Set<Int>())

    /// A mock on 127.0.0.1, port 0, playing `environment`, with fresh credentials (or those of
    /// `sharingCredentialsWith`, so one client certificate works with both), misbehaving as `faults` say.
    public init(
        environment: APNSEnvironment = .sandbox, sharingCredentialsWith other: ObservedMock? = nil,
        faults: MockFaults = .none, rejections: [String: APNSReason] = [:], maxConcurrentStreams: UInt32 = 1000,
        configure: (inout MockConfiguration) -> Void = { _ in }
    ) throws {
        directory = try TemporaryDirectory(prefix: "observed-mock")
        if let other {
            (state, stateLock) = (other.state, nil)
        } else {
            (state, stateLock) = try MockState.prepareExclusively(directory: directory.file("state"))
        }
        var configuration = try MockConfiguration(
            state: state, environment: environment, rejections: rejections,
            faults: faults, threads: 2)
        configuration.maxConcurrentStreams = maxConcurrentStreams
        let answers = self.answers
        let connections = self.connections
        configuration.onAnswer = { answer in
            if let device = answer.device { answers.withLock { $0[device, default: 0] += 1 } }
            connections.withLock { _ = $0.insert(answer.connection) }
        }
        configure(&configuration)
        server = try MockServer(configuration: configuration)
        port = try server.start()
        ProcessSignals.ignoreBrokenPipe()
    }

    deinit { server.stop() }

    /// `https://127.0.0.1:PORT`.
    public var endpoint: String { "https://127.0.0.1:\(port)" }
    /// The state dir's CA (trust it to verify the server).
    public var caFile: String { state.caFile }
    /// The universal demo push certificate and key (PEM).
    public var certificateFile: String { state.clientFile }

    /// The state dir's `.p8` signing key, its key id and team id (token auth).
    public var authKeyFile: String { state.authKeyFile }
    public var keyID: String { state.keyID }
    public var teamID: String { state.teamID }

    /// Answers per device so far.
    public var answeredDevices: [String: Int] { answers.withLock { $0 } }
    /// How many times `device` was answered.
    public func answerCount(_ device: String) -> Int { answers.withLock { $0[device] ?? 0 } }
    /// Devices answered more than once: duplicate pushes.
    public var answeredTwice: [String: Int] { answers.withLock { $0.filter { $0.value > 1 } } }
    /// Connections that answered at least once.
    public var answeringConnections: Int { connections.withLock { $0.count } }
}
