import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

/// What every `apnsctl channel` subcommand takes: the app (`--topic`), the request id, the output format,
/// and `send`'s credential, environment and connection flags (the same option groups).
struct ChannelOptions: ParsableArguments {
    @Option(
        name: [.customShort("t"), .setting(.topic)],
        help: ArgumentHelp(
            "The app's bundle id (a push-type suffix such as .push-type.liveactivity is removed). Default: the certificate's bundle id. Required with --auth-key.",
            valueName: "topic"))
    var topic: String?

    @Option(
        name: .customLong("request-id"),
        help: ArgumentHelp(
            "apns-request-id for this request: a canonical UUID (default: a fresh lowercase one).", valueName: "uuid"))
    var requestID: String?

    @Option(
        name: [.customShort("o"), .setting(.output)],
        help: ArgumentHelp("Result format: text, or json (one JSON object per line).", valueName: "text|json"),
        completion: .list(["text", "json"]),
        transform: SettingArgument.transform(.output, .channel))
    var output: SettingValue?

    @OptionGroup(title: "Settings") var settingsOptions: ProfileOptions

    @OptionGroup(title: "Certificate auth") var certificate: CertificateOptions
    @OptionGroup(title: "Passphrase") var passphrase: PassphraseOptions
    @OptionGroup(title: "Token auth") var tokenAuth: TokenAuthOptions
    @OptionGroup(title: "Connection") var connection: ChannelConnectionOptions

    /// Everything checked before connecting, in `send`'s order: the settings resolved first (flags, `APNSCTL_*`
    /// variables, the profile; 64), then credentials (77). `subcommand`: the parsed subcommand, whose setting
    /// flags (these options' and its own, `create --storage`) are read.
    func plan(_ subcommand: Any, in world: CommandWorld) throws(CLIError) -> ChannelPlan {
        // A script that meant a dry run must not change channels, and channel has no dry run: refused, as send does.
        let change =
            subcommand is APNSCtl.Channel.Create ? "created" : subcommand is APNSCtl.Channel.Delete ? "deleted" : nil
        if let change, let name = UnreadVariables.dryRunVariable(in: world.settings.variables) {
            throw CLIError.usage(
                "\(name) is set, but channel has no dry run, and nothing was \(change): unset \(name) to change channels (apnsctl send --dry-run shows a broadcast without sending it)"
            )
        }
        world.warnAboutUnreadVariables(command: ["channel", "create"])
        let settings = try settingsOptions.resolve(.channel, from: subcommand, world: world.settings)
        try StandardInputReaders.check(settings.standardInputReaders)
        let format = settings[.output]?.value ?? .text
        let requestID = try parsedRequestID(requestID)
        // Apple's channel management host has ports of its own; the flag is checked as for send all the same, and
        // given on the command line it is said to be unused (a firewall rule written for it would not help).
        _ = try settings.checkedPort(endpoints: settings.endpointList, in: world)
        if let port = settings[.port], case .flag = port.origin, settings.endpointList.isEmpty {
            world.standardError.warning(
                "\(settings.label(.port)) \(port.value) is not used by channel: Apple's channel management host listens on 2195 (sandbox) and 2196 (production)"
            )
        }
        try settings.checkCAFile(in: world)
        let credentials = try BroadcastCredentials.load(settings, now: world.clock.now(), in: world)
        let route = try settings.singleRoute(environment: credentials.environment, command: "channel", in: world) {
            env in
            PushEndpoint(channelManagement: env)
        }
        let endpoint = route.endpoint
        var configuration = settings.senderConfiguration(
            endpoint: endpoint, identity: credentials.identity, proxy: route.proxy, in: world)
        configuration.environment = credentials.environment
        return ChannelPlan(
            settings: settings, format: format, credentials: credentials, endpoint: endpoint,
            configuration: configuration, requestID: requestID, interrupts: world.interrupts)
    }
}
