import APNSCore
import APNSCrypto
import APNSMock
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl {
    /// `apnsctl mock`: a local APNs, so demos, tests and CI smoke checks need no Apple account.
    struct Mock: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "mock",
            abstract: "Run a local APNs-compatible HTTP/2 server for demos, tests and CI.",
            usage: """
                apnsctl mock [--port <port>] [--state-dir <dir>] [--detach] [<options>]
                  apnsctl mock stop [--state-dir <dir>]
                """,
            discussion: """
                Serves POST /3/device/TOKEN over TLS and HTTP/2 (ALPN h2, or prior knowledge) and checks \
                each request as APNs does, first fault wins: method and path, repeated apns-* headers, the \
                client certificate or bearer token, apns-id, apns-push-type, apns-priority, apns-expiration, \
                apns-collapse-id, the topic, the device token, then the body (empty, over 4096 bytes or 5120 \
                for voip, not a JSON object). Answers carry APNs' statuses and reasons, an apns-id and, in the \
                sandbox, an apns-unique-id. The payload's aps rules are not checked (APNs does not; use \
                apnsctl validate). A device token shorter than 64 hex digits, and the all-zero one, which APNs \
                never issues, get 400 BadDeviceToken once the credentials and topic passed (the all-zero one \
                is apnsctl doctor's probe), before any --unregistered or --reject rule.

                A connection with a client certificate must present one issued by the state dir's CA that \
                carries the OID of the environment the mock plays (--env, default sandbox). A connection \
                without one is a token connection: each request needs 'authorization: bearer JWT' signed by \
                the state dir's AuthKey_KEYID.p8 (or --auth-key-pub) with its key id and team id, and gets a \
                single stream until its first good token, then 1000. With --key-environment the keys play \
                one limited to that environment: on a mock of the other --env, their tokens get 403 \
                BadEnvironmentKeyIdInToken after the signature and team checks.

                The state dir holds, created on first start and reused: ca.pem, server.pem, server-key.pem, \
                client.pem (a universal push certificate and its key for com.example.demo, \
                com.example.demo.voip and com.example.demo.complication, both environments), \
                AuthKey_KEYID.p8 and demo.json (key id, team id), written to a temporary directory beside it \
                and renamed into place, so mocks started together agree on one set. The state dir holds keys, \
                so it must be yours alone: a symbolic link, another user's directory or one that group or \
                others can write is refused (exit 73), and nothing in it is followed through a link. \
                One mock per state dir: \
                a second one exits 73 naming the first one's pid (give parallel jobs --state-dir \
                "$(mktemp -d)"). When ready, the mock writes mock.json there \
                (endpoint, manage_endpoint, ca_file, cert, auth_key, key_id, team_id, bundle_id, environment, pid) \
                and prints a ready line \
                and a working 'apnsctl send' command on stderr. Each request is logged as JSON lines on stdout, \
                one when it is received and one when it is answered, written before the answer is sent; a reader that falls behind costs log lines (counted on stderr), never \
                answers. A client must finish its TLS handshake within 10 s and complete a request at least every \
                10 s after it (else GOAWAY {"reason":"IdleTimeout"}); silent clients never delay others. \
                A connection whose credentials were refused gets one stream at a time, and unfinished \
                request data is capped at 16 MiB per connection (past it, RST_STREAM REFUSED_STREAM). \
                SIGINT or SIGTERM sends GOAWAY {"reason":"Shutdown"}, lets open streams \
                finish and exits 0 within a second.

                The same port serves broadcast push (iOS 18 Live Activities, see apnsctl channel): \
                POST /4/broadcasts/apps/BUNDLE (apns-channel-id, apns-push-type liveactivity, \
                apns-expiration 0 on a No Message Stored channel, apns-priority; the body an update or end, \
                at most 5120 bytes) and channel management on /1/apps/BUNDLE/channels (POST creates, GET \
                reads, DELETE deletes) and /1/apps/BUNDLE/all-channels (GET lists), up to 10000 channels per \
                app. Certificate auth must cover BUNDLE (else 403 TopicMismatch). Channels are kept in \
                channels.json in the state dir across restarts; mock.json names the same port as \
                manage_endpoint; each broadcast is logged with "channel" instead of "device".

                With --detach the command returns once the mock is ready (exit 0), printing its endpoint on \
                stdout (endpoint=$(apnsctl mock --detach --port 0)) and the ready lines, its pid and its log \
                file (--log, default mock.log in the state dir) on stderr, with the mock running on in the \
                background; a mock that cannot start gives its own error and exit code. apnsctl mock \
                stop [--state-dir DIR] stops the mock of that state dir and waits for it to exit.

                Exit codes: 64 bad flags, 66/77 unreadable or unusable --auth-key-pub, 69 the address cannot \
                be used (e.g. the port is in use), 73 the state dir cannot be written or is in use by another \
                mock, 74 the log could not be written to stdout (said on stderr at the first failure; the mock \
                keeps serving).
                """,
            subcommands: [Stop.self])

        @Option(name: .customLong("host"), help: "Address to listen on; 127.0.0.1 serves only this machine.")
        var host = "127.0.0.1"

        @Option(name: .customLong("port"), help: "Port to listen on; 0 picks a free one (mock.json shows it).")
        var port = 2197

        @Option(
            name: .customLong("state-dir"),
            help: ArgumentHelp(
                "Directory for the mock's credentials and mock.json (default $APNSCTL_MOCK_STATE_DIR, where the built-in mock profile reads mock.json too, else $XDG_STATE_HOME/apnsctl/mock, else ~/.local/state/apnsctl/mock). It must be yours and writable by nobody else (a link is refused); a missing one is created 0700.",
                valueName: "dir"), completion: .directory)
        var stateDir: String?

        @Option(
            name: [.customShort("e"), .customLong("env")],
            help: ArgumentHelp(
                "The environment the mock plays: client certificates need its OID; apns-unique-id only in sandbox.",
                valueName: "sandbox|production"), completion: .list(["sandbox", "production"]))
        var environment = "sandbox"

        @Option(
            name: .customLong("auth-key-pub"),
            help: ArgumentHelp(
                "Also accept bearer tokens signed by this key (a PUBLIC KEY PEM, a .p8 or a certificate).",
                valueName: "file"),
            completion: .file())
        var authKeyPub: String?

        @Option(
            name: .customLong("key-id"),
            help: ArgumentHelp(
                "Key id of --auth-key-pub (default: from its file name when it starts AuthKey_KEYID, any extension).",
                valueName: "id"))
        var keyID: String?

        @Option(
            name: .customLong("team-id"),
            help: ArgumentHelp(
                "Team id of --auth-key-pub (default: the state dir's team id).", valueName: "id"))
        var teamID: String?

        @Option(
            name: .customLong("unregistered"),
            help: ArgumentHelp(
                "Answer this device token with 410 Unregistered and a timestamp (repeatable).", valueName: "token"))
        var unregistered: [String] = []

        @Option(
            name: .customLong("reject"),
            help: ArgumentHelp(
                "Answer this device token with REASON and its documented status, e.g. 3f2a…=BadDeviceToken (repeatable).",
                valueName: "token=reason"))
        var reject: [String] = []

        @Option(
            name: .customLong("error-close-after"),
            help: ArgumentHelp(
                "After N error answers on one connection (410s do not count; a BadDeviceToken counts as N), send GOAWAY and close it, as APNs does. Off by default.",
                valueName: "n"))
        var errorCloseAfter: Int?

        @Option(
            name: .customLong("key-environment"),
            help: ArgumentHelp(
                "Play a signing key limited to one environment (Apple's keys can be, since 2025): tokens signed by the state dir's key or --auth-key-pub get 403 BadEnvironmentKeyIdInToken on a mock whose --env is the other one. Default: keys for both.",
                valueName: "sandbox|production"), completion: .list(["sandbox", "production"]))
        var keyEnvironment: String?

        @Flag(
            name: .customLong("detach"),
            help: ArgumentHelp(
                "Run in the background: return (exit 0) once the mock is ready, printing its pid and endpoint; stop it with apnsctl mock stop."
            ))
        var detach = false

        @Option(
            name: .customLong("log"),
            help: ArgumentHelp(
                "With --detach: append the mock's log (its stdout and stderr) to this file (default: mock.log in the state dir).",
                valueName: "file"), completion: .file())
        var log: String?

        @Option(
            name: .customLong("ready-fd"),
            help: ArgumentHelp("Say ready on this descriptor (set by --detach).", visibility: .hidden))
        var readyFD: Int32?

        @Option(name: .customLong("threads"), help: ArgumentHelp("Event-loop threads.", visibility: .hidden))
        var threads = 2

        @Option(
            name: .customLong("max-connections"),
            help: ArgumentHelp(
                "Connections served at once; more are closed at once, with a warning on stderr.", valueName: "n",
                visibility: .hidden))
        var maxConnections = 10_000

        @Option(
            name: .customLong("max-streams"),
            help: ArgumentHelp(
                "SETTINGS_MAX_CONCURRENT_STREAMS advertised (token connections get 1 until their first good token).",
                valueName: "n", visibility: .hidden))
        var maxStreams = Int(APNSLimit.observedMaxConcurrentStreams)

        @Option(
            name: .customLong("max-channels"),
            help: ArgumentHelp(
                "Broadcast channels per app before CannotCreateChannelConfig (APNs: 10000).", valueName: "n",
                visibility: .hidden))
        var maxChannels = Broadcast.maximumChannels

        @OptionGroup var faultOptions: MockFaultOptions

        func validate() throws {
            func nearEnvironment(_ given: String) -> String {
                Suggestion.closest(to: given, among: ["sandbox", "production", "development", "prod", "dev"])
                    .map { "; did you mean \(PrintableText.quoted($0))?" } ?? ""
            }
            guard APNSEnvironment(userValue: environment) != nil else {
                throw ValidationError("--env \(environment): use sandbox or production" + nearEnvironment(environment))
            }
            if let keyEnvironment, APNSEnvironment(userValue: keyEnvironment) == nil {
                throw ValidationError(
                    "--key-environment \(keyEnvironment): use sandbox or production" + nearEnvironment(keyEnvironment))
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port): use 0 to 65535") }
            guard (1...64).contains(threads) else { throw ValidationError("--threads \(threads): use 1 to 64") }
            if let errorCloseAfter, errorCloseAfter < 1 {
                throw ValidationError(
                    "--error-close-after \(errorCloseAfter): use 1 or more (leave it out to never close)")
            }
            guard (1...1_000_000).contains(maxConnections) else {
                throw ValidationError("--max-connections \(maxConnections): use 1 to 1000000")
            }
            guard (1...1_000_000).contains(maxChannels) else {
                throw ValidationError("--max-channels \(maxChannels): use 1 to 1000000")
            }
            guard (1...Int(Int32.max)).contains(maxStreams) else {
                throw ValidationError("--max-streams \(maxStreams): use 1 to \(Int32.max)")
            }
            if log != nil && !detach {
                throw ValidationError("--log is where a detached mock writes its log; add --detach, or redirect stdout")
            }
            if log == "-" || log?.isEmpty == true {
                // This command returns once the mock is ready: its stdout is no place for a log that runs on.
                throw ValidationError(
                    "--log \(log ?? ""): a detached mock's log is a file, as this command returns at once; give a path such as mock.log, or leave --log out for mock.log in the state dir"
                )
            }
            if let log, let problem = MockStateDirectory.unexpandedTilde(log, flag: "--log") {
                throw ValidationError(problem)
            }
            if stateDir?.isEmpty == true {
                // An unset variable in `--state-dir "$DIR"`: the working directory would get the mock's keys.
                throw ValidationError("--state-dir: empty value; give the mock's state directory")
            }
            if authKeyPub == nil, let flag = keyID != nil ? "--key-id" : (teamID != nil ? "--team-id" : nil) {
                throw ValidationError(
                    "\(flag) describes the key given with --auth-key-pub; pass --auth-key-pub FILE too")
            }
        }

        func run(in world: CommandWorld) throws {
            let env = APNSEnvironment(userValue: environment) ?? .sandbox
            let (gone, rejections) = try answerRules()
            // A token shorter than a device token, and the all-zero one, are answered BadDeviceToken before these
            // rules are looked at.
            for (flag, token) in gone.sorted().map({ ("--unregistered", $0) })
                + rejections.keys.sorted().map({ ("--reject", $0) })
            {
                if token.utf8.count < DeviceToken.issuedHexDigits {
                    world.standardError.warning(
                        "\(flag) \(token): only \(token.utf8.count) hex digits; the mock answers any token shorter than \(DeviceToken.issuedHexDigits) with BadDeviceToken first, so this rule never applies"
                    )
                } else if !faultOptions.acceptProbe, token.utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) {
                    world.standardError.warning(
                        "\(flag) \(token): the all-zero token, which APNs never issues; the mock answers it with BadDeviceToken first (doctor probes with it), so this rule never applies"
                    )
                }
            }

            let extraKID = try extraKeyID()

            guard let stateDirectory = try MockStateDirectory(given: stateDir, in: world) else {
                throw CLIError.outputExists(
                    "no home directory for the default --state-dir (\(world.settings.noHomeReason(xdg: "XDG_STATE_HOME"))); "
                        + "pass one, e.g. --state-dir \"$(mktemp -d)\"")
            }
            let directory = stateDirectory.path
            // The built-in profiles read this state dir's mock.json only where they look by default.
            let profilesFind = stateDirectory.isWhereProfilesLook
            if detach {
                try MockDetach.start(
                    directory: directory, named: stateDirLabel, stateDirGiven: !profilesFind, log: log, world: world)
                return
            }
            if readyFD != nil { DetachedProcess.leaveSession() }
            // One mock per state dir: the lock is held until this process ends (the kernel drops it even on SIGKILL).
            let state: MockState
            let lock: FileLock
            do { (state, lock) = try MockState.prepareExclusively(directory: directory) } catch {
                let failure = Self.cliError(error, stateDir: directory, named: stateDirLabel)
                // Detached, the log is the running mock's: the reason goes to the waiting parent instead.
                if readyFD != nil, let message = failure.message {
                    DetachedProcess.sayFailed(Array("error: \(message)\n".utf8))
                    throw CLIError.checksFailed(code: failure.exitCode, message: nil)
                }
                throw failure
            }
            try withExtendedLifetime(lock) { () throws(CLIError) in
                try serve(
                    state: state, environment: env, unregistered: gone, rejections: rejections, extraKeyID: extraKID,
                    profilesFindIt: profilesFind, in: world)
            }
        }

        /// The devices `--unregistered` and `--reject` script, by token. Two answers scripted for one device are
        /// refused: the test would get one of them, maybe not the one it was written for.
        func answerRules() throws(CLIError) -> (unregistered: Set<String>, rejections: [String: APNSReason]) {
            let gone = try Set(
                unregistered.map { t throws(CLIError) in try MockTokenArguments.token(t, flag: "--unregistered") })
            var rejections: [String: APNSReason] = [:]
            var given: [String: String] = [:]
            for r in reject {
                let (token, reason) = try MockTokenArguments.rejection(r)
                if let earlier = rejections[token], earlier != reason {
                    throw .usage(
                        "--reject \(given[token] ?? token) and --reject \(r) name one device; give it one answer")
                }
                if gone.contains(token) {
                    let first = unregistered.first { (try? DeviceToken(parsing: $0).hex) == token } ?? token
                    throw .usage("--unregistered \(first) and --reject \(r) name one device; give it one answer")
                }
                rejections[token] = reason
                given[token] = given[token] ?? r
            }
            return (gone, rejections)
        }

        /// The server these flags describe on a prepared state dir, logging to `logDescriptor`: the whole mock but
        /// its state dir's lock, its ready file and its stop on signals (which tests, serving it in-process, do without).
        func configuration(
            state: MockState, environment env: APNSEnvironment, unregistered gone: Set<String>,
            rejections: [String: APNSReason], extraKeyID extraKID: String?,
            logDescriptor: Int32?
        ) throws(CLIError) -> MockConfiguration {
            var verifiers: [ProviderTokenVerifier] = []
            do { verifiers.append(try state.tokenVerifier()) } catch {
                throw Self.cliError(error, stateDir: state.directory, named: stateDirLabel)
            }
            if let extra = try extraVerifier(keyID: extraKID, state: state) { verifiers.append(extra) }

            var rules = MockRules(
                environment: env, unregistered: gone, rejections: rejections, tokenChecker: ProviderTokenKeys(verifiers)
            )
            rules.keyEnvironment = keyEnvironment.flatMap { APNSEnvironment(userValue: $0) }
            rules.acceptsZeroToken = faultOptions.acceptProbe
            var configuration = MockConfiguration(
                host: host, port: port, identity: state.serverIdentity, rules: rules,
                faults: faultOptions.faults, threads: threads, maxConnections: maxConnections,
                maxConcurrentStreams: UInt32(maxStreams), errorCloseAfter: errorCloseAfter,
                logDescriptor: logDescriptor)
            configuration.channelsDirectory = state.storage
            configuration.maxChannels = maxChannels
            configuration.connectionCapAdvice = "the limit is --max-connections"
            return configuration
        }

        /// Runs the mock on a prepared, locked state dir until SIGINT/SIGTERM; the ready lines go to `messages`. Its
        /// notification log is written to the world's log descriptor (1 in the binary) by the server's own writer thread
        /// (never blocking an event loop).
        private func serve(
            state: MockState, environment env: APNSEnvironment, unregistered gone: Set<String>,
            rejections: [String: APNSReason], extraKeyID extraKID: String?, profilesFindIt: Bool,
            in world: CommandWorld
        ) throws(CLIError) {
            let messages = world.standardError
            var configuration = try configuration(
                state: state, environment: env, unregistered: gone, rejections: rejections,
                extraKeyID: extraKID,
                // A log sent to /dev/null is not made: lines nobody reads cost the server time on every request.
                logDescriptor: world.mockRun.logDescriptor.flatMap { FileSystem.isNullDevice($0) ? nil : $0 })
            configuration.warningDescriptor = world.mockRun.warningDescriptor
            // We hold the lock, so a mock.json here is a killed mock's leftover.
            MockReadyFile.removeLeftover(state: state)
            MockStopReport.removeLeftover(state: state)
            let server: MockServer
            do { server = try MockServer(configuration: configuration) } catch { throw Self.cliError(error) }
            // A stop that cannot finish in order (a stderr nobody reads, say) still ends within a second,
            // leaving no mock.json that names a dead mock.
            let detached = readyFD != nil
            if world.mockRun.stopsOnProcessSignals {
                server.stopOnTerminationSignals {
                    MockReadyFile.remove(state: state)
                    // Cut short, a detached mock still leaves what `mock stop` says for it.
                    if detached { Self.stopReport(server, detached: true)?.keep(in: state) }
                }
            }
            let actualPort: Int
            do { actualPort = try server.start() } catch { throw Self.cliError(error) }
            if !world.mockRun.stopsOnProcessSignals, let interrupts = world.interrupts() {
                // Served inside another program (a test): the world's interrupts stop it as the signals would.
                let watcher = OSThread()
                _ = watcher.start {
                    _ = PollSet.wait(for: interrupts.fd, .readable, until: nil)
                    server.stop()
                }
                watcher.detach()
            }
            let endpoint = MockReadyFile.endpoint(host: host, port: actualPort)
            do { try MockReadyFile.write(state: state, endpoint: endpoint, environment: env) } catch {
                throw Self.cliError(error, stateDir: state.directory, named: stateDirLabel)
            }
            if readyFD != nil {
                // Detached: the ready lines go to the waiting parent, which prints them; then the pipe closes.
                let collected = LockedValue<[UInt8]>([])
                announce(
                    state: state, endpoint: endpoint, environment: env, profilesFindIt: profilesFindIt,
                    to: MessageStream { bytes in collected.withLock { $0 += bytes } })
                DetachedProcess.sayReady(MockDetach.readyMessage(endpoint: endpoint, lines: collected.withLock { $0 }))
            } else {
                announce(
                    state: state, endpoint: endpoint, environment: env, profilesFindIt: profilesFindIt, to: messages)
            }
            server.wait()
            MockReadyFile.remove(state: state)
            // CLI.md: a log that cannot be written is exit 74 when stopped, with the lost lines counted. Detached,
            // stderr is the log too: `mock stop` says it instead.
            guard let report = Self.stopReport(server, detached: detached) else { return }
            if detached { report.keep(in: state) }
            if report.exitStatus != ExitStatus.success {
                throw .outputFailed(String(report.message.dropFirst("error: ".count)))
            }
            MockServer.warnWithoutBlocking(
                String(report.message.dropFirst("warning: ".count)), to: world.mockRun.warningDescriptor)
        }

        /// `N notification log lines were not written`.
        private static func lostLines(_ lost: Int) -> String {
            "\(lost) notification log line\(lost == 1 ? " was" : "s were") not written"
        }

        /// What a stopping mock has to say about its log (nil: nothing), worded for `mock stop` when `detached`.
        private static func stopReport(_ server: MockServer, detached: Bool) -> MockStopReport? {
            let lost = server.droppedLogLines
            if let code = server.logWriteError {
                let written = detached ? "writing its log" : "writing standard output"
                return MockStopReport(
                    exitStatus: ExitStatus.outputFailed,
                    message: "error: apnsctl mock: \(written): \(FileSystem.errnoText(code)); \(lostLines(lost))")
            }
            guard lost > 0 else { return nil }
            return MockStopReport(
                exitStatus: ExitStatus.success,
                message: "warning: apnsctl mock: \(lostLines(lost)) because standard output was not read in time")
        }

        /// How messages name the state dir: the flag when it was given, else what it is (the default, or
        /// APNSCTL_MOCK_STATE_DIR's), so no one looks for a --state-dir they never typed.
        var stateDirLabel: String { stateDir == nil ? "the mock's state dir" : "--state-dir" }

        /// CLI.md's exit codes for state dir problems (cannot write or in use by another mock 73, credentials 77),
        /// each message naming the state dir as `label` and what to do.
        private static func cliError(_ error: MockStateError, stateDir: String, named label: String) -> CLIError {
            switch error {
            case .files(let failure):
                // The library's advice (after ";"), if any, is about paths; ours names the flag.
                let fact = failure.message.split(separator: ";", maxSplits: 1).first.map(String.init) ?? failure.message
                let place = fact.hasPrefix(stateDir + ":") ? fact : "\(stateDir): \(fact)"
                return .outputExists(
                    "\(label) \(place); give --state-dir a directory you can create and write to, e.g. --state-dir \"$(mktemp -d)\""
                )
            case .notADirectory:
                return .outputExists("\(label) \(error.description); choose another --state-dir")
            case .untrusted:
                // Someone else could plant keys or links there: refused untouched (CLI.md, `apnsctl mock`).
                return .outputExists(
                    "\(label) \(error.description); the mock keeps keys there, so it must be a directory "
                        + "only you can write; use a fresh one, e.g. --state-dir \"$(mktemp -d)\"")
            case .inUse:
                return .outputExists(
                    "\(error.description), or give each parallel job its own with --state-dir \"$(mktemp -d)\"")
            case .credentials: return .credential(error.description)
            }
        }

        /// A mock that cannot start (exit 69): a port in use gets the flag that picks a free one.
        private static func cliError(_ error: MockServerError) -> CLIError {
            .transport(.mockCannotStart(error))
        }

        /// The key id of `--auth-key-pub`: `--key-id`, else the file name. Checked before the state dir is touched.
        func extraKeyID() throws(CLIError) -> String? {
            guard let path = authKeyPub else { return nil }
            if let pasted = CLIError.pastedText(path, flag: "--auth-key-pub") { throw pasted }
            if let dash = CLIError.fileOnly("--auth-key-pub", path, what: "the public key") { throw dash }
            // With --detach the mock reads it in the background, where this command's descriptors are gone:
            // `/dev/stdin` was empty there, and `<(…)` (/dev/fd/63) a missing file.
            if detach,
                FileSystem.namesStandardInput(path) || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/")
            {
                throw .usage(
                    "--auth-key-pub \(path): a mock started with --detach reads it in the background, where this "
                        + "command's input and pipes are gone; save the key to a file and give that file's path")
            }
            // A misspelt path is the problem to name first (66), not the key id its name would have given.
            guard FileSystem.exists(path) else {
                let hint = FileSystem.missingPathHint(path)
                throw .inputMissing(
                    "--auth-key-pub \(VariableEcho.shownPath(path)): no such file"
                        + (hint.isEmpty ? "; check the path" : hint))
            }
            // Name only what the user gave: the flag they typed, or the file name the id came from.
            let kid: String
            if let keyID {
                guard DeveloperID.isWellFormed(keyID) else {
                    throw .usage("--key-id \(keyID): a key id is 10 characters, A-Z and 0-9")
                }
                kid = keyID
            } else if let fromName = SigningKey.keyID(fromFileNamePrefix: path) {
                guard DeveloperID.isWellFormed(fromName) else {
                    throw .usage(
                        "--auth-key-pub \(path): the file name gives key id '\(fromName)', but a key id is 10 characters, A-Z and 0-9; pass --key-id ID, or name the file AuthKey_KEYID (any extension)"
                    )
                }
                kid = fromName
            } else {
                throw .usage(
                    "--auth-key-pub \(path): no key id; pass --key-id ID, or name the file AuthKey_KEYID (any extension, e.g. AuthKey_ABCDE12345.pub.pem)"
                )
            }
            if let teamID, !DeveloperID.isWellFormed(teamID) {
                throw .usage("--team-id \(teamID): a team id is 10 characters, A-Z and 0-9")
            }
            return kid
        }

        /// The verifier for `--auth-key-pub` with key id `kid`; its team id is `--team-id`, else the state dir's.
        private func extraVerifier(keyID kid: String?, state: MockState) throws(CLIError) -> ProviderTokenVerifier? {
            guard let path = authKeyPub, let kid else { return nil }
            // The state dir's key answers for its id first: tokens of another key under that id would get 403.
            if kid == state.keyID {
                let from = keyID != nil ? "--key-id \(kid)" : "--auth-key-pub \(path) (its file name)"
                throw .usage(
                    "\(from): key id \(kid) is the mock's own key's (\(state.authKeyFile)), which the mock checks with that key alone, so tokens another key signed under it would be refused; give your key its own id with --key-id (the mock's own key needs no --auth-key-pub)"
                )
            }
            let team = teamID ?? state.teamID
            // What the mock takes is not what send takes (no .p12, a public key will do): its own advice.
            let takes =
                "give the .p8 signing key, its public key (openssl pkey -in AuthKey_\(kid).p8 -pubout) or a certificate holding it"
            do { return try ProviderTokenVerifier(keyFile: path, keyID: kid, teamID: team) } catch {
                switch error {
                case .notACredential(_, let detail):
                    throw .credential("--auth-key-pub \(path): no key in it (\(detail)); \(takes)")
                case .notSigningKey(_, let found):
                    throw .credential(
                        "--auth-key-pub \(path): \(found), where APNs signing keys are EC P-256; \(takes)")
                default:
                    throw CLIError(error, flags: .flags(("--auth-key-pub", path)))
                }
            }
        }

        /// The ready line and a send command that works against this mock, on stderr.
        private func announce(
            state: MockState, endpoint: String, environment: APNSEnvironment, profilesFindIt: Bool,
            to messages: MessageStream
        ) {
            // Replaced credentials are said with why: the CA, the key and the team id a script kept are new too.
            let made = state.created ? "created" : "reusing"
            let replaced =
                state.replacedBecause.map {
                    " (the old ones were unusable: \($0); the CA, the key and the team id are new too)"
                } ?? ""
            var send = [
                "apnsctl", "send", "--endpoint", endpoint, "--ca-file", state.caFile, "--cert", state.clientFile,
            ]
            if environment == .production { send += ["--env", "production"] }
            send += [
                "--topic", MockState.bundleID, "--device", MockCommandText.demoDevice,
                #"{"aps":{"alert":"Hello from apnsctl mock"}}"#,
            ]
            messages.print(
                """
                apnsctl mock: ready on \(endpoint) (\(environment.rawValue)); \(made) credentials in \(state.directory)\(replaced)
                apnsctl mock: try: \(MockCommandText.shellJoin(send))
                apnsctl mock: token auth: --auth-key \(MockCommandText.shellQuote(state.authKeyFile)) --team-id \(state.teamID) instead of --cert
                apnsctl mock: profiles: -p mock (its certificate) or -p mock-token (its key, for Live Activities, widgets and jwt)\(profilesFindIt ? "" : "; export APNSCTL_MOCK_STATE_DIR=\(MockCommandText.shellQuote(state.directory)) first")

                """)
        }
    }
}

/// Texts for the ready lines: a demo device token and shell quoting for copy-paste.
enum MockCommandText {
    /// Any even-length hex is a token to the mock; this one is easy to spot in the log.
    static let demoDevice = "a1b2c3d4" + String(repeating: "00", count: 24) + "e5f6a7b8"

    /// `word` quoted for a POSIX shell when it needs it.
    static func shellQuote(_ word: String) -> String {
        let safe = word.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || "-_./:=@,+".utf8.contains(c)
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func shellJoin(_ words: [String]) -> String { words.map(shellQuote).joined(separator: " ") }

}

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
