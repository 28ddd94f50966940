import APNSCore
import APNSPlatform
import APNSSettings

/// `xcrun simctl`, found on the world's `PATH` and run with an argument vector: the device list, and a push
/// whose payload goes through a 0600 file in a private folder of ours, removed afterwards.
struct Simctl {
    let xcrun: String
    let world: CommandWorld

    /// How long simctl may take: booting services on a first push can take several seconds.
    static let timeout = 60.0

    init(world: CommandWorld) throws(CLIError) {
        guard let xcrun = ChildProcess.find("xcrun", path: world.variable("PATH")) else {
            throw .inputMissing(
                "--simulator: xcrun not found on PATH; install Xcode (or its command line tools) and select it with xcode-select -s"
            )
        }
        self.xcrun = xcrun
        self.world = world
    }

    /// Runs `xcrun simctl ARGUMENTS` in a fresh private folder, which `prepare` may fill first.
    private func run(_ arguments: [String], prepare: (String) throws(CLIError) -> Void = { _ in })
        throws(CLIError) -> ChildProcess.Outcome
    {
        let base = world.variable("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        guard let scratch = FileSystem.makeUniqueDirectory(template: base + "/apnsctl-simctl.XXXXXX") else {
            throw .outputExists("--simulator: cannot make a private folder in \(base): \(FileSystem.errnoText())")
        }
        defer { FileSystem.removeEmptyDirectory(scratch) }
        try prepare(scratch)
        defer { ChildProcess.removeScratchFile(scratch + "/payload.json") }
        do {
            return try ChildProcess.run(
                xcrun, ["simctl"] + arguments.map { $0 == "{payload}" ? scratch + "/payload.json" : $0 },
                environment: world.settings.variables, scratch: scratch, timeout: Self.timeout)
        } catch {
            switch error {
            case .cannotRun(let path, let reason): throw .inputMissing("--simulator: cannot run \(path): \(reason)")
            case .timedOut(_, let seconds):
                throw .checksFailed(
                    code: ExitStatus.transport,
                    message:
                        "xcrun simctl \(arguments.first ?? ""): no answer within \(Int(seconds)) s; is Simulator stuck? Try xcrun simctl shutdown all"
                )
            }
        }
    }

    /// The device `wanted` names: `booted` (exactly one booted simulator), a UDID, or a name (exact, then
    /// without case).
    func device(_ wanted: String) throws(CLIError) -> SimulatorDevice {
        let listed = try run(["list", "devices", "-j"])
        guard listed.status == 0, let devices = SimulatorDevice.list(listed.standardOutput) else {
            throw .checksFailed(
                code: ExitStatus.transport,
                message:
                    "xcrun simctl list devices -j failed (exit \(listed.status)): \(Self.message(listed)); check that Xcode is selected (xcode-select -p) and its license accepted"
            )
        }
        if wanted == "booted" {
            let booted = devices.filter(\.isBooted)
            guard let only = booted.first, booted.count == 1 else {
                if booted.isEmpty {
                    throw .checksFailed(
                        code: ExitStatus.transport,
                        message:
                            "--simulator booted: no simulator is booted; boot one with xcrun simctl boot NAME (xcrun simctl list devices shows them) or open Simulator"
                    )
                }
                throw .usage(
                    "--simulator booted: \(booted.count) simulators are booted; name one: "
                        + booted.map { "\($0.name) (\($0.udid), \($0.runtimeName))" }.joined(separator: "; "))
            }
            return only
        }
        let found =
            devices.first { $0.udid.lowercased() == wanted.lowercased() } ?? devices.first { $0.name == wanted }
            ?? devices.first { $0.name.lowercased() == wanted.lowercased() }
        guard let found else {
            let near = devices.map(\.name).first { $0.lowercased().hasPrefix(wanted.lowercased().prefix(4)) }
            throw .usage(
                "--simulator \(wanted): no such simulator\(near.map { "; did you mean \"\($0)\"?" } ?? "") (xcrun simctl list devices lists them)"
            )
        }
        guard found.isBooted else {
            throw .checksFailed(
                code: ExitStatus.transport,
                message:
                    "--simulator \(wanted): \(found.name) is \(found.state.lowercased()); boot it with xcrun simctl boot \(found.udid) or open Simulator"
            )
        }
        return found
    }

    /// Pushes `payload` to `device`'s app `bundle`; nil when delivered, else simctl's message.
    func push(_ payload: [UInt8], to device: SimulatorDevice, bundle: String) throws(CLIError) -> String? {
        let outcome = try run(["push", device.udid, bundle, "{payload}"]) { (scratch) throws(CLIError) in
            do throws(FileSystem.Failure) {
                try FileSystem.write(payload, to: scratch + "/payload.json", mode: 0o600, overwrite: false)
            } catch {
                throw CLIError(error)
            }
        }
        return outcome.status == 0 ? nil : Self.message(outcome)
    }

    /// simctl's own words: its stderr's last non-empty line, else its exit status.
    static func message(_ outcome: ChildProcess.Outcome) -> String {
        let lines = String(decoding: outcome.standardError, as: UTF8.self).split(separator: "\n")
        return lines.last(where: { !$0.isEmpty }).map(String.init) ?? "exit status \(outcome.status)"
    }
}

/// One simulator push's result line or JSON object.
struct SimulatorResult {
    let device: SimulatorDevice
    let bundle: String
    /// simctl's message when it failed.
    let error: String?

    func print(_ format: OutputFormat, to out: OutputSink) { out.print(text(format) + "\n") }

    /// The result's line (text) or object (JSON), without its newline.
    func text(_ format: OutputFormat) -> String {
        switch format {
        case .json:
            var w = JSONWriter()
            w.beginObject()
            w.field("simulator", device.udid)
            w.field("name", device.name)
            w.field("bundle", bundle)
            w.field("status", error == nil ? "delivered" : "failed")
            if let error { w.field("error", error) }
            w.endObject()
            return w.text
        case .text:
            let status = error == nil ? "delivered" : "failed   "
            return PrintableText.escapingControls(
                "\(status)  simulator  \(device.name) (\(device.udid))  \(bundle)" + (error.map { "  \($0)" } ?? ""))
        }
    }
}
