import APNSClient
import APNSCore
import ArgumentParser

/// `send`'s connection flags: where to connect, whom to trust, how patient and how parallel to be.
struct SendConnectionOptions: ParsableArguments {
    @Option(name: [.customShort("e"), .customLong("env")],
            help: ArgumentHelp("APNs environment: sandbox (also development, dev) or production (prod). Default: the certificate's only environment, else sandbox.",
                               valueName: "sandbox|production"), completion: .list(["sandbox", "production"]))
    var environment: String?

    @Option(name: .customLong("endpoint"),
            help: ArgumentHelp("Send to this https://host:port instead of Apple's host for --env (the mock, a proxy under test).", valueName: "url"))
    var endpoint: String?

    @Option(name: .customLong("ca-file"),
            help: ArgumentHelp("Trust this PEM CA bundle for the server certificate (default: the system trust store).", valueName: "file"), completion: .file())
    var caFile: String?

    @Flag(name: .customLong("insecure"), help: "Do not verify the server certificate (prints a warning; for local tests only).")
    var insecure = false

    @Option(name: .customLong("concurrency"),
            help: ArgumentHelp("Streams in flight on the one connection, 1 to 1000 (default: the server's limit, at most 1000).", valueName: "n"))
    var concurrency: Int?

    @Option(name: .customLong("timeout"),
            help: ArgumentHelp("Seconds allowed for connecting and for each wait for an answer.", valueName: "seconds"))
    var timeout: Double = 30

    /// `--env`, checked; nil when not given.
    func parsedEnvironment() throws(CLIError) -> APNSEnvironment? {
        guard let environment else { return nil }
        guard let e = APNSEnvironment(userValue: environment) else {
            throw .usage("--env \(JSONWriter.quoted(environment)): unknown environment; use sandbox (development) or production")
        }
        return e
    }

    /// `--endpoint`, checked; nil when not given.
    func parsedEndpoint() throws(CLIError) -> PushEndpoint? {
        guard let endpoint else { return nil }
        do { return try PushEndpoint(url: endpoint) } catch { throw .usage(error.message) }
    }

    /// Range checks for the numeric flags.
    func checkNumbers() throws(CLIError) {
        if let concurrency, concurrency < 1 || concurrency > SenderConfiguration.maximumConcurrency {
            throw .usage("--concurrency \(concurrency): must be from 1 to \(SenderConfiguration.maximumConcurrency)")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw .usage("--timeout \(timeout): must be a number of seconds above 0 (and at most a day)")
        }
    }
}
