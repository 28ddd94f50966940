import APNSCore
import APNSMock

extension MockConfiguration {
    /// A mock serving `state`'s credentials: its server certificate, its CA for client certificates and its
    /// `.p8` for bearer tokens (what `apnsctl mock` serves, without its flags). The one-liner for tests:
    ///
    ///     let (state, lock) = try MockState.prepareExclusively(directory: tempDir)
    ///     let server = try MockServer(configuration: MockConfiguration(state: state, faults: MockFaults(neverAnswer: true)))
    ///     let port = try server.start()   // connect to https://127.0.0.1:port with --ca-file state.caFile
    public init(
        state: MockState, environment: APNSEnvironment = .sandbox, unregistered: Set<String> = [],
        rejections: [String: APNSReason] = [:], faults: MockFaults = .none, host: String = "127.0.0.1",
        port: Int = 0, threads: Int = 1, logDescriptor: Int32? = nil
    ) throws(MockStateError) {
        let rules = MockRules(
            environment: environment, unregistered: unregistered, rejections: rejections,
            tokenChecker: ProviderTokenKeys([try state.tokenVerifier()]))
        self.init(
            host: host, port: port, identity: state.serverIdentity, rules: rules, faults: faults,
            threads: threads, logDescriptor: logDescriptor)
        channelsDirectory = state.storage
    }
}
