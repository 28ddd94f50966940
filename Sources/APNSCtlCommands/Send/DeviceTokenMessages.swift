import APNSClient
import APNSCore
import APNSPlatform
import APNSSettings

extension DeviceToken.Problem {
    /// The problem as `send` words it: the core says what is wrong with the value, apnsctl says which of
    /// its flags takes one token (CLI.md: "one token per --device").
    var cliMessage: String {
        guard let list = listSign else { return message }
        return message + list + DeviceNames.Problem.onePerDevice
    }

    /// Whether the value looks like several tokens in one (a space, or a comma or semicolon of a pasted list),
    /// and what to add to the message about it.
    var listSign: String? {
        switch self {
        case .innerWhitespace: return ""
        case .notHex(character: ","), .notHex(character: ";"): return " (a list of tokens?)"
        default: return nil
        }
    }
}

extension DeviceFile.Problem {
    /// The problem as `send` words it, one line per bad line, each naming `--devices` (CLI.md:
    /// `error: --devices FILE:LINE: …`), with the token rule's advice where it helps.
    var cliLines: [String] {
        switch self {
        case .file, .keyFile: return ["--devices " + message]
        case .badLines(let file, let lines, let more):
            var out = lines.map { bad -> String in
                let advice = bad.tokenProblem?.listSign.map { "\($0); give one per line" } ?? ""
                return "--devices \(file):\(bad.line): \"\(bad.excerpt)\": \(bad.reason)\(advice)"
            }
            if more > 0 { out.append("--devices \(file): … and \(more) more bad line\(more == 1 ? "" : "s")") }
            return out
        }
    }
}

extension DeviceNames.Problem {
    /// A token's problem as `send` words it; a name's problem as the settings word it, for a value quoted before it.
    /// With no names defined at all, the token's own problem comes first (the value was most likely meant as one).
    var cliMessage: String {
        switch self {
        case .token(let p): return p.cliMessage
        case .unknownName(let name, let known) where known.isEmpty:
            if let bad = name.first(where: { !($0.isASCII && $0.isHexDigit) }) {
                return DeviceToken.Problem.notHex(character: bad).cliMessage + "; nor is it a device name: " + message
            }
            return message
        // Quoted before the message (its first 8 characters, as it may be a secret of a name's shape): not
        // repeated whole after it.
        case .unknownName: return lineMessage
        default: return message
        }
    }

    /// How several tokens are given, said after a value that holds more than one.
    static let onePerDevice = "; give one token per --device, one per line in a --devices file"

    /// `cliMessage`, saying the value may be a list when it holds a comma or semicolon the problem was not about
    /// (`alice,bob` with names defined, `["T1","T2"]`).
    /// Only where the message is a generic one: a value recognised as something else (a `Data` description, which
    /// holds a comma) is told what it is.
    func cliMessage(value: String) -> String {
        // A simulator's name for itself (`booted`, its UDID), given where a device token goes.
        if value.lowercased() == "booted" || UUIDString.isCanonical(value.lowercased()) {
            return cliMessage + "; a simulator is chosen with --simulator (booted, its UDID or its name), not -d"
        }
        // `-d -`, as the files flags read standard input: a list from a pipe is --devices's.
        if FileSystem.namesStandardInput(value) {
            return cliMessage + "; -d takes one token: a list from a pipe goes to --devices - (one token a line)"
        }
        switch self {
        case .unknownName, .token(.notHex), .token(.oddLength): break
        default: return cliMessage
        }
        if case .token(let problem) = self, problem.listSign != nil { return cliMessage }
        guard value.contains(where: { $0 == "," || $0 == ";" }) else { return cliMessage }
        return cliMessage + "; a list of tokens?" + Self.onePerDevice.dropFirst()
    }
}

extension DeviceNames {
    /// The lookup `--devices` lines use (APNSClient cannot see the settings): a known name gives its token and
    /// is recorded in `used` for the results; an unknown name-shaped value, or a bad entry, is a bad line (worded
    /// only if it is reported, without repeating the line); any other text is parsed as a token. Nil when no
    /// names are defined (a plain list costs nothing more).
    func lookup(recording used: LockedValue<[String: String]>) -> DeviceNameLookup? {
        guard !entries.isEmpty else { return nil }
        let names = self
        return { (text: String) -> DeviceNameAnswer in
            let device: DeviceNames.Device
            do throws(DeviceNames.Problem) { device = try names.resolve(text) } catch {
                if case .token = error { return DeviceNameAnswer.notAName }
                return DeviceNameAnswer.problem({ error.lineMessage })
            }
            guard let name = device.name else { return DeviceNameAnswer.notAName }
            // A token listed again under another name is sent once, by its first line: that name stays its own.
            used.withLock { if $0[device.token.hex] == nil { $0[device.token.hex] = name } }
            return DeviceNameAnswer.token(device.token)
        }
    }
}

extension DeviceFile.Change {
    /// A `--devices FILE` something else wrote while it was sent: what was sent is what it held when checked, and
    /// what that leaves out is said, with the way to send it.
    func warning(_ file: String) -> String {
        let name = "--devices \(ShellWord.of(file))"
        switch self {
        case .grew(let checked, let now):
            return "\(name) grew while it was sent (\(checked) bytes when checked, \(now) now): only the lines it held "
                + "when checked were sent; send the lines added since in another run"
        case .cut(let checked, let now, let lines, let lost):
            return "\(name) was cut while it was sent (\(checked) bytes when checked, \(now) now): "
                + "\(lost == 1 ? "1 device" : "\(lost) devices") after line \(lines) \(lost == 1 ? "was" : "were") never "
                + "sent; send them from a copy of the list (copy a list something else writes before sending it)"
        case .rewritten(let lines):
            return "\(name) changed while it was sent: \(lines == 1 ? "1 line" : "\(lines) lines") checked as devices "
                + "no longer held one and \(lines == 1 ? "was" : "were") skipped; copy a list something else writes "
                + "before sending it"
        }
    }
}
