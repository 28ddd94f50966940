import APNSClient
import APNSCore
import APNSPlatform

/// `--unsent FILE`: the devices a run leaves without a final answer, written so that `--devices FILE` resumes it
/// (CLI.md, "Input and output at the edges"). One line per device in input order, a device given by name kept as
/// its name; a device whose outcome is unknown (APNs may have delivered it) is commented out after a comment
/// saying why, so a resume pushes it again only when the user uncomments it. Written once, at the end, through
/// the checked output (mode 0600, a temporary file renamed into place); no file when every device was answered.
final class UnsentDevices {
    private struct Entry {
        let position: Int
        let hex: String
        /// Why its outcome is unknown; nil for a device that was never sent (or provably not processed).
        let unknown: String?
    }

    let path: String
    private let devices: SendDevices
    private let name: (String) -> String?
    private var entries: [Entry] = []
    /// The devices of unknown outcome the list being resumed holds (each its comment and its commented-out line),
    /// when `--devices` and `--unsent` are one file: they still have no final answer, and replacing or removing
    /// the file would lose the only record of them.
    private var carried: [String] = []
    /// How many devices `carried` holds.
    var carriedCount: Int { carried.count / 2 }

    /// The first line of every file this writes: what lets a later run replace (or remove) it.
    static let headerStart = "# " + DeviceFile.unsentHeader

    /// Checks `path` before anything is sent: only a regular file is ever replaced, in a directory that exists
    /// (exit 73), so a run's unsent devices are not lost to a path that could never be written. An existing file
    /// is replaced (or removed, when every device is answered) only when it is one this wrote (a resume with
    /// `--devices FILE --unsent FILE`) or an empty one (`mktemp`): a slip such as `--unsent payload.json`, or a
    /// list of the user's own given as both, must not cost the user a file.
    /// `standardInput`: what `--devices -` reads, to tell a resume fed the very file (`< unsent.txt`).
    init(
        path: String, devices: SendDevices, name: @escaping (String) -> String?, standardInput: Int32
    ) throws(CLIError) {
        self.path = path
        self.devices = devices
        self.name = name
        guard path != "-" else {
            throw .usage("--unsent -: standard output carries the results; give a file for the unsent devices")
        }
        guard !path.isEmpty else {
            throw .usage("--unsent: empty; give the file to write the devices left without a final answer to")
        }
        let exists: Bool
        do { exists = try FileSystem.checkOutputTarget(path) } catch {
            throw CLIError(error.relabelled("--unsent \(path)"))
        }
        if exists {
            let start = FileSystem.readStart(path, count: Self.headerStart.utf8.count)
            guard let start, start.isEmpty || start == Array(Self.headerStart.utf8) else {
                let shown = PrintableText.escapingControls(path)
                throw .outputExists(
                    "--unsent \(shown): the file exists and is no unsent list apnsctl wrote, so it is left as it is; "
                        + "choose another path (it is replaced or removed at the end of the run), or remove it first")
            }
        }
        if exists, let list = devices.file?.displayName,
            list == "-" ? FileSystem.isSameFile(descriptor: standardInput, path) : FileSystem.isSameFile(list, path)
        {
            carried = Self.lines(of: path).map(Self.unknownEntries(in:)) ?? []
        } else if exists, Self.isList(path), case let left = Self.devicesListed(in: path), left.map({ $0 > 0 }) ?? true,
            !Self.sends(everyDeviceOf: path, devices)
        {
            // An earlier run's list that this run does not read (the command line recalled with another --devices):
            // replacing or removing it would lose the only record of those devices. A pipe may hold it or not,
            // which cannot be told: only the file itself, read as --devices, resumes it.
            let count = left.map { $0 == 1 ? "1 device" : "\($0) devices" } ?? "devices"
            let shown = PrintableText.escapingControls(ShellWord.of(path))
            throw .outputExists(
                "--unsent \(shown): lists \(count) an earlier run left without a final answer, and this run does not "
                    + "read it; resume them with --devices \(shown) --unsent \(shown) (put any other devices of this "
                    + "run in that file first), or give another --unsent path")
        }
        guard FileSystem.isDirectory(PrivateDirectory.parentPath(of: path)) else {
            throw CLIError(
                FileSystem.Failure.cannotCreate(
                    path: "--unsent \(path)",
                    reason: "its directory does not exist; create it first or choose another path"))
        }
    }

    /// Keeps a device whose result is not final: failed without an answer (unknown or not).
    func note(_ r: PushResult) {
        guard r.outcome == .failed, let device = r.device else { return }
        let unknown = r.failure.flatMap { $0.isUnknownOutcome ? $0.message : nil }
        entries.append(Entry(position: r.inputPosition ?? Int.max, hex: device.hex, unknown: unknown))
    }

    /// Keeps a device taken from the list but never sent (an interrupt came first); it has no result.
    func noteNeverSent(_ job: PushJob) {
        guard case .device(let device) = job.target else { return }
        entries.append(Entry(position: job.position ?? Int.max, hex: device.hex, unknown: nil))
    }

    /// Keeps devices a stream had already given (read into its buffer) when the run stopped: after every other.
    func noteNeverSent(_ tokens: [DeviceToken]) {
        for (i, token) in tokens.enumerated() {
            entries.append(Entry(position: Int.max / 2 + i, hex: token.hex, unknown: nil))
        }
    }

    /// What an `--unsent` list whose every line is a comment still holds, for a resume that finds no token in it;
    /// nil for any other file. The devices of unknown outcome are commented out so that nothing sends them twice
    /// without a decision, and a piped list's unread rest was never in it.
    static func commentedOut(in path: String) -> String? {
        guard isList(path),
            let bytes = try? FileSystem.read(path, limit: 1 << 24)
        else { return nil }
        let lines = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        let unknown = lines.filter { $0.hasPrefix(unknownComment) }.count
        let rest = lines.first { $0.hasPrefix("# " + DeviceFile.unsentRest) }
        var parts: [String] = []
        if unknown > 0 {
            parts.append(
                "\(unknown == 1 ? "1 device" : "\(unknown) devices") may have been delivered and \(unknown == 1 ? "is" : "are") commented out; to send \(unknown == 1 ? "it" : "them") again (at least once), remove the '# ' before \(unknown == 1 ? "its" : "their") token"
            )
        }
        if let rest {
            parts.append(
                String(rest.dropFirst(2)).replacing(
                    ": send it too", with: ", and is not in this file: send it from where it came"))
        }
        return parts.isEmpty ? nil : "every line of this --unsent list is a comment: " + parts.joined(separator: "; ")
    }

    /// How many devices an `--unsent` list at `path` holds (those never sent, and those of unknown outcome still
    /// commented out); nil when it cannot be read.
    static func devicesListed(in path: String) -> Int? {
        guard let lines = lines(of: path) else { return nil }
        return deviceLines(lines).count + unknownEntries(in: lines).count / 2
    }

    /// The lines of a list that name a device: neither a comment nor blank.
    private static func deviceLines(_ lines: [String]) -> [String] {
        lines.filter { line in
            !line.hasPrefix("#") && line.unicodeScalars.contains { $0 != " " && $0 != "\t" && $0 != "\r" }
        }
    }

    /// Whether this run sends every device the `--unsent` list at `path` holds (`send --replay N --unsent FILE`, or
    /// the same `-d` flags again): the list may then be replaced, as nothing in it is lost. A line this cannot read
    /// as a token or a name of this run's is a device it does not send.
    static func sends(everyDeviceOf path: String, _ devices: SendDevices) -> Bool {
        guard devices.file == nil, !devices.given.isEmpty, let lines = lines(of: path) else { return false }
        let tokens = Set(devices.given.map(\.hex))
        let named = Dictionary(devices.names.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let entries = unknownEntries(in: lines)
        let commented = stride(from: 1, to: entries.count, by: 2).map { String(entries[$0].dropFirst(2)) }
        return (deviceLines(lines) + commented).allSatisfy { line in
            let trimmed = line.trimmingBlanks()
            if let token = try? DeviceToken(parsing: trimmed) { return tokens.contains(token.hex) }
            return named[trimmed].map(tokens.contains) ?? false
        }
    }

    /// The lines of the list at `path` (at most 64 MiB of it); nil when it cannot be read whole.
    private static func lines(of path: String) -> [String]? {
        guard let bytes = try? FileSystem.read(path, limit: 1 << 26) else { return nil }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Whether `path` starts as every list this writes does.
    static func isList(_ path: String) -> Bool {
        FileSystem.readStart(path, count: headerStart.utf8.count) == Array(headerStart.utf8)
    }

    static let unknownComment = "# " + DeviceFile.unsentUnknown

    /// The lines of the devices of unknown outcome the `--unsent` list of `lines` holds, each comment with the
    /// commented-out device after it; one the user uncommented (to send it again) is no longer among them.
    private static func unknownEntries(in lines: [String]) -> [String] {
        var kept: [String] = []
        for (i, line) in lines.enumerated() where line.hasPrefix(unknownComment) && i + 1 < lines.count {
            let device = lines[i + 1]
            if device.hasPrefix("# "), !device.hasPrefix(unknownComment) { kept += [line, device] }
        }
        return kept
    }

    /// Writes the file, with the devices the run never reached (`stopped`: interrupted or lost output) read from
    /// the rest of the list; returns its path, or nil when every device has a final answer (an old file at the
    /// path is then removed, as it no longer says anything true). A stream's unread rest stays unread (it may never
    /// end): a comment says where it stopped. A failed write is exit 74, naming the file.
    /// Whether `name` on a line of its own reads back as that name in a `--devices` list.
    static func readsBack(_ name: String) -> Bool {
        guard let first = name.first, let last = name.last else { return false }
        return first != "#" && !first.isWhitespace && !last.isWhitespace
            && !name.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }

    func write(stopped: Bool, in world: CommandWorld) throws(CLIError) -> String? {
        var lines: [UInt8] = []
        func line(_ text: String) {
            lines.append(contentsOf: text.utf8)
            lines.append(0x0A)
        }
        // A name the list would not read back as that name (`#x` reads as a comment, ` pad` trimmed, a line break
        // as two lines) is written as its token: the device is kept, the name is not.
        func device(_ hex: String) -> String { name(hex).flatMap { Self.readsBack($0) ? $0 : nil } ?? hex }
        // The resumed list's own devices of unknown outcome come first: they came before this run's.
        for text in carried { line(text) }
        for entry in entries.sorted(by: { $0.position < $1.position }) {
            if let why = entry.unknown {
                // The failure's own text starts with the word the comment starts with: said once.
                let reason = why.hasPrefix("unknown: ") ? String(why.dropFirst("unknown: ".count)) : why
                line(Self.unknownComment + PrintableText.escapingControls(reason))
                line("# " + device(entry.hex))
            } else {
                line(device(entry.hex))
            }
        }
        let streamed = devices.file?.isStreamed == true
        if stopped && !streamed {
            while let token = devices.source.next() { line(device(token.hex)) }
        }
        // A rest is claimed only while one may come, as the summary says it: a bad last line (the writer gone)
        // leaves none, and the tokens read but not taken were listed above.
        if streamed, let file = devices.file, !file.streamHasNoRest, stopped || file.streamProblem != nil {
            line(
                "# \(DeviceFile.unsentRest)\(file.displayName) after line \(file.linesRead) was not read: send it too")
        }
        // A file cut while it was sent: its devices after the last line read are gone from it, and from the results.
        if !streamed, let file = devices.file, case .cut(_, _, let read, let lost)? = file.changeSinceCheck {
            line(
                "# \(DeviceFile.unsentRest)\(file.displayName) after line \(read) was cut off while it was sent "
                    + "(\(lost) device\(lost == 1 ? "" : "s")): send it from a copy of the list")
        }
        guard !lines.isEmpty else {
            removeStaleFile(in: world)
            return nil
        }
        // The path as a shell word, to paste; one holding a line break must not end the comment.
        let header =
            Self.headerStart + ", in input order; resume with --devices "
            + PrintableText.escapingControls(ShellWord.of(path)) + "\n"
        do { try FileSystem.write(Array(header.utf8) + lines, to: path, mode: 0o600, overwrite: true) } catch {
            // A stopped run's devices never sent have no result line: the results cannot rebuild the list alone.
            throw .outputFailed(
                "--unsent " + error.message
                    + (stopped
                        ? "; the list is lost: the devices with a failed or unknown result are in the results above, "
                            + "and those never sent have none: they are the devices of the list that got no result"
                        : "; the devices without a final answer are in the results above"))
        }
        return path
    }

    /// A file left by an earlier run lists devices this run answered: removed when it is a regular file, else left
    /// with a warning.
    private func removeStaleFile(in world: CommandWorld) {
        guard let failure = FileSystem.removeRegularFile(path) else { return }
        world.standardError.warning(
            "--unsent \(failure.message); every device was answered, so the old file was left as it is")
    }
}
