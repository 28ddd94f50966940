import APNSClient
import APNSCore
import ArgumentParser
import APNSPlatform

/// What every `apnsctl channel` subcommand takes: the app (`--topic`), the request id, the output format,
/// and `send`'s credential, environment and connection flags (the same option groups).
struct ChannelOptions: ParsableArguments {
    @Option(name: [.customShort("t"), .customLong("topic")],
            help: ArgumentHelp("The app's bundle id (a push-type suffix such as .push-type.liveactivity is removed). Default: the certificate's bundle id. Required with --auth-key.",
                               valueName: "topic"))
    var topic: String?

    @Option(name: .customLong("request-id"),
            help: ArgumentHelp("apns-request-id for this request: a canonical UUID (default: a fresh lowercase one).", valueName: "uuid"))
    var requestID: String?

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Result format: text, or json (one JSON object per line).", valueName: "text|json"), completion: .list(["text", "json"]))
    var output = "text"

    @OptionGroup(title: "Certificate auth") var certificate: CertificateOptions
    @OptionGroup(title: "Passphrase") var passphrase: PassphraseOptions
    @OptionGroup(title: "Token auth") var tokenAuth: TokenAuthOptions
    @OptionGroup(title: "Connection") var connection: ChannelConnectionOptions

    /// Everything checked before connecting, in `send`'s order: flags (64), credentials (77).
    func plan() throws(CLIError) -> ChannelPlan {
        guard let format = SendOutput.Format(rawValue: output.lowercased()) else {
            throw .usage("-o \(JSONWriter.quoted(output)): unknown output format; use text or json")
        }
        try connection.checkNumbers()
        if let topic { try HeaderValueCheck.check(topic, flag: "--topic") }
        let explicitEnvironment = try connection.parsedEnvironment()
        let requestID = try parsedRequestID(requestID)
        if let caFile = connection.caFile, !FileSystem.exists(caFile) {
            throw .inputMissing("--ca-file \(caFile): no such file; check the path")
        }
        let credentials = try BroadcastCredentials.load(topic: topic, certificate: certificate, passphrase: passphrase,
                                                        tokenAuth: tokenAuth, environment: explicitEnvironment)
        let route = try connection.singleRoute(environment: credentials.environment, command: "channel") { env in
            PushEndpoint(channelManagement: env)
        }
        let endpoint = route.endpoint
        if connection.insecure {
            StandardStreams.warning("--insecure: the server certificate is not verified; anyone on the network path could read or change what is sent")
        }
        let trust: ServerTrust = connection.insecure ? .insecure : connection.caFile.map { .caFile($0) } ?? .systemStore
        var configuration = SenderConfiguration(endpoint: endpoint, trust: trust, identity: credentials.identity,
                                                timeout: connection.timeout, concurrency: connection.concurrency,
                                                proxy: route.proxy.proxy)
        configuration.environment = credentials.environment
        return ChannelPlan(format: format, credentials: credentials, endpoint: endpoint, configuration: configuration,
                           requestID: requestID)
    }
}
