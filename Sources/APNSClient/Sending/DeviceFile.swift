import APNSCore
import APNSPlatform

/// A `--devices FILE`: one token per line, blank lines and `#` comments skipped, a UTF-8 byte-order mark at
/// the start ignored. Never copied to disk, never held in memory (CLI.md, "Input and output at the edges"):
///
/// - a regular file is checked whole when opened (every bad line collected, 20 kept, the rest counted), so a
///   bad line stops the run before anything is sent; `makeSource()` then reads it again from the start;
/// - standard input (`-`) and anything else that can be read only once (a FIFO, `<(…)`) are streamed:
///   each line is checked as the sender asks for it, and the first bad line ends the list there
///   (`streamProblem` says which, once the sender is done). Their count is unknown (`count` is nil).
public final class DeviceFile {
    /// One line that is not a token.
    public struct BadLine: Equatable, Sendable {
        /// 1-based line number.
        public let line: Int
        /// At most the line's first 8 characters, control characters escaped: a file given by mistake
        /// (a passphrase, a key) must not be echoed whole.
        public let excerpt: String
        /// What is wrong, as one clause.
        public let reason: String
        /// The token rule it broke, when it was a token-shaped problem (the CLI adds advice for some).
        public let tokenProblem: DeviceToken.Problem?
    }

    /// Why the list cannot be used: the file (exit 66), a key or certificate given instead (exit 64), or lines in
    /// it (exit 64).
    public enum Problem: Error, Equatable, Sendable {
        case file(FileSystem.Failure)
        /// A line holds a PEM boundary or binary data: the whole file is a key or certificate, never quoted.
        case keyFile(file: String, holding: KeyMaterial)
        /// The first bad lines (at most `DeviceFile.reportedBadLines`) and how many more there were.
        case badLines(file: String, lines: [BadLine], more: Int)

        /// One line per bad line naming the file and line, then `… and N more` (the caller names its flag).
        public var messages: [String] {
            switch self {
            case .file(let f): return [f.message]
            case .keyFile(let file, .utf16Text) where FileSystem.namesStandardInput(file):
                // A pipe has no file to convert: the conversion goes in the pipe.
                return [
                    "\(file): UTF-16 text (as Windows PowerShell's > writes it), not UTF-8; convert it in the pipe (… | iconv -f UTF-16 -t UTF-8 | apnsctl send … --devices -)"
                ]
            case .keyFile(let file, .utf16Text):
                return [
                    "\(file): UTF-16 text (as Windows PowerShell's > writes it), not UTF-8; save the list as UTF-8 (iconv -f UTF-16 -t UTF-8 \(file) > tokens.txt, or Out-File -Encoding utf8) and give that file"
                ]
            case .keyFile(let file, let holding):
                let what = holding == .pemBlock ? "a PEM block" : "binary data, as DER keys and .p12 files do"
                return [
                    "\(file): a key or certificate file, not a device list (it holds \(what), which is not shown); give the file of device tokens, one per line"
                ]
            case .badLines(let file, let lines, let more):
                return lines.map { "\(file):\($0.line): \"\($0.excerpt)\": \($0.reason)" }
                    + (more > 0 ? ["\(file): … and \(more) more bad line\(more == 1 ? "" : "s")"] : [])
            }
        }

        /// The first line of `messages`.
        public var message: String { messages.first ?? "" }
    }

    /// What shows that a list is a key or certificate file.
    public enum KeyMaterial: Equatable, Sendable {
        case pemBlock
        case binaryData
        /// Not a key, but no list this reads either: text saved as UTF-16 (Windows PowerShell's `>` writes it),
        /// every character a byte and a NUL.
        case utf16Text
    }

    /// How a checked regular file was changed while it was sent (something else writing it): the devices sent are
    /// those of the lines it held when checked, read again.
    public enum Change: Sendable, Equatable {
        /// Bytes were added after the check: the lines they hold were not read.
        case grew(checkedBytes: Int, nowBytes: Int)
        /// It was cut short before it was read whole: `lost` devices of the check, those after line `linesRead`, were
        /// never read (a cut last line is not sent). Cut after it was read whole, it lost nothing and is no change.
        case cut(checkedBytes: Int, nowBytes: Int, linesRead: Int, lost: Int)
        /// Lines checked as devices no longer held one when read again: skipped.
        case rewritten(lines: Int)
    }

    /// Bad lines reported one by one before the rest are counted (CLI.md).
    public static let reportedBadLines = 20
    /// A longer line is never a token (64 hex digits, 160 in Xcode's spaced form): it is a bad line, not
    /// something to cut down and send.
    public static let maximumLineLength = DeviceToken.maximumHexDigits

    /// The name the user gave (`-` for standard input).
    public let displayName: String
    /// Number of tokens, for a regular file; nil for a stream, whose length is known only at its end.
    public private(set) var count: Int?
    /// Line numbers of tokens shorter than 32 bytes (the first few), and how many there are in all: a regular
    /// file's once it was checked, a stream's as far as it was read.
    public var shortTokenLines: [Int] { stream?.shortTokens.lines ?? shortTokens.lines }
    public var shortTokenCount: Int { stream?.shortTokens.count ?? shortTokens.count }
    private var shortTokens = ShortTokens()
    private let input: InputFile
    private var stream: DeviceStreamSource?
    /// Device names lines may use, if any.
    private let names: DeviceNameLookup?
    /// Tokens reached before (by `-d` or an earlier line): skipped, counted for one warning.
    public let repeats: DeviceRepeats?
    /// `--skip-invalid`: bad lines are reported and skipped instead of refusing the list (or ending a stream).
    public let skipsInvalid: Bool
    /// With `skipsInvalid`, a regular file's bad lines, found when it was checked (reported before sending).
    private var skippedInFile: Problem? = nil
    /// The bytes a regular file held when checked: a second pass reads no more.
    private var checkedBytes: Int?
    /// The second pass, asked after the run how it went.
    private var reread: DeviceFileSource?
    private var skippedInFileCount = 0

    /// Opens `path` (`-`: the descriptor `standardInput`, when given); a regular file is checked whole here. A
    /// line may be a device name when `names` knows it. With `repeats`, a token seen before is skipped; with
    /// `skipInvalid`, so is a bad line (a key or certificate file is still refused whole).
    /// `pollsFirst`: the caller waits for a stream's first bytes with its interrupts (`descriptorToWaitFor`)
    /// before reading, so a FIFO's writer is not waited for here.
    public init(
        path: String, names: DeviceNameLookup? = nil, standardInput: Int32? = nil, repeats: DeviceRepeats? = nil,
        skipInvalid: Bool = false, pollsFirst: Bool = false
    ) throws(Problem) {
        displayName = path
        self.names = names
        self.repeats = repeats
        skipsInvalid = skipInvalid
        do { input = try InputFile(path: path, standardInput: standardInput, pollsFirst: pollsFirst) } catch {
            throw .file(error)
        }
        switch input.kind {
        case .directory: throw .file(.isDirectory(path: path))
        case .stream:
            stream = DeviceStreamSource(
                reader: input.lines(), file: path, names: names, repeats: repeats, skipInvalid: skipInvalid)
        case .regular:
            try checkWhole()
        }
    }

    /// With `skipsInvalid`: the bad lines skipped (the first 20 and how many more), nil when there were none. For a
    /// stream, known once the sender is done with it.
    public var skippedLines: Problem? { stream.map { $0.skipped } ?? skippedInFile }

    /// With `skipsInvalid`: how many bad lines were skipped.
    public var skippedCount: Int { stream?.skippedCount ?? skippedInFileCount }

    /// Lines read so far (a stream that stopped early was read to here, not further).
    public var linesRead: Int { stream?.linesRead ?? 0 }

    /// Whether the list is read once as it arrives (standard input, a FIFO) rather than checked first.
    public var isStreamed: Bool { stream != nil }

    /// The bad line that ended a streamed list early, if one did (exit 64 after the results).
    public var streamProblem: Problem? { stream?.problem }

    /// The tokens, read lazily: a fresh pass over a regular file (the bytes it held when checked, no more), or the
    /// one pass over a stream.
    public func makeSource() throws(Problem) -> DeviceSource {
        if let stream { return stream }
        do { try input.rewind() } catch { throw .file(error) }
        repeats?.replayCheckedLines()
        let source = DeviceFileSource(
            reader: input.lines(limit: checkedBytes), checkedBytes: checkedBytes, names: names, repeats: repeats)
        reread = source
        return source
    }

    /// How a regular file differs, once sent, from what was checked; nil when it does not (or it is a stream). Asked
    /// after the run: the sizes are the descriptor's, so a file replaced by another under its name is not seen.
    public var changeSinceCheck: Change? {
        guard stream == nil, let checkedBytes, let now = input.currentSize() else { return nil }
        if now > checkedBytes { return .grew(checkedBytes: checkedBytes, nowBytes: now) }
        // The end came before the bytes checked: cut while read (a run that stopped early did not read to its end).
        if let reread, reread.reachedEnd, reread.bytesRead < checkedBytes {
            let lost = max(0, (count ?? 0) - reread.tokensRead)
            guard lost > 0 else { return nil }
            return .cut(checkedBytes: checkedBytes, nowBytes: now, linesRead: reread.linesRead, lost: lost)
        }
        if let bad = reread?.badLines, bad > skippedInFileCount { return .rewritten(lines: bad - skippedInFileCount) }
        return nil
    }

    /// Whether a stream holds nothing after what was read: after a bad line, that line was its last.
    public var streamHasNoRest: Bool { stream?.readerIsAtEnd ?? false }

    /// The descriptor a stream's next token waits on, nil when it would not wait (a regular file, a token or the
    /// end already read): a caller that must stay interruptible waits on it beside its interrupts first.
    public func descriptorToWaitFor() -> Int32? { stream?.descriptorToWaitFor() }

    /// The first token without using it up (the dry run shows it; an empty list is a usage error). For a
    /// stream this reads up to the first token, and a bad line before it is thrown here.
    public func firstToken() throws(Problem) -> DeviceToken? {
        if let stream {
            let first = stream.peek()
            if let problem = stream.problem, first == nil { throw problem }
            return first
        }
        return try makeSource().next()
    }

    /// Reads a regular file to its end, counting tokens and collecting bad lines.
    private func checkWhole() throws(Problem) {
        let reader = input.lines()
        var bad: [BadLine] = []
        var more = 0
        var tokens = 0
        repeats?.startPass(checking: true)
        while let line = reader.next() {
            switch Self.parse(line, number: reader.lineNumber, names: names) {
            case .skip: continue
            // Lines before it that were reported as bad would quote the key's first lines: only this is said.
            case .keyMaterial(let holding): throw .keyFile(file: displayName, holding: holding)
            case .bad(let b):
                // Only a reported line is worded: a did-you-mean among thousands of names costs time.
                if bad.count < Self.reportedBadLines { bad.append(b.reported) } else { more += 1 }
            case .token(let token):
                if repeats?.isRepeat(token, line: reader.lineNumber) == true { continue }
                tokens += 1
                shortTokens.note(token, line: reader.lineNumber)
            }
        }
        repeats?.finishCheck()
        checkedBytes = reader.bytesRead
        if !bad.isEmpty {
            guard skipsInvalid else { throw .badLines(file: displayName, lines: bad, more: more) }
            skippedInFile = .badLines(file: displayName, lines: bad, more: more)
            skippedInFileCount = bad.count + more
        }
        count = tokens
    }

    /// What one line holds.
    enum Line {
        case skip
        case token(DeviceToken)
        /// A PEM boundary or binary data: the list is a key or certificate file.
        case keyMaterial(KeyMaterial)
        case bad(UnwordedBadLine)
    }

    /// A bad line whose reason is not worded yet: only the lines reported are (CLI.md: did-you-mean suggestions
    /// are computed only for the lines printed).
    struct UnwordedBadLine {
        enum Reason {
            /// `cut`: the line reader returned it cut to its buffer, so it is longer still.
            case tooLong(characters: Int, cut: Bool)
            /// Lines ended by a carriage return alone (classic Mac OS, some spreadsheet exports): one line here.
            case carriageReturns
            /// One of an `--unsent` list's own comments with its `# ` removed (a whole file uncommented).
            case unsentComment
            /// A value followed by `# …` on its line: comments have lines of their own.
            case trailingComment
            case token(DeviceToken.Problem)
            case name(@Sendable () -> String)
        }

        let line: Int
        let text: String
        let reason: Reason

        /// The line as it is reported: its excerpt and its reason in words.
        var reported: BadLine {
            let words: String
            let problem: DeviceToken.Problem?
            switch reason {
            case .tooLong(let n, let cut):
                (words, problem) = (
                    "\(cut ? "at least \(n)" : "\(n)") characters; a device token is 64 hex digits (is this the right file?)",
                    nil
                )
            case .carriageReturns:
                (words, problem) = (
                    "values split by carriage returns alone (CR, the line end of classic Mac OS and some spreadsheet exports), not by line feeds; save the list with LF line ends (tr '\\r' '\\n' < LIST > tokens.txt) and give that file",
                    nil
                )
            case .trailingComment:
                (words, problem) = (
                    "a comment after the value: a comment goes on a line of its own, starting with # (after a value it is read as part of it)",
                    nil
                )
            case .unsentComment:
                (words, problem) = (
                    "a comment of an --unsent list, its '# ' removed: put the '# ' back (remove it only before the tokens to send again)",
                    nil
                )
            case .token(let p): (words, problem) = (p.message, p)
            case .name(let worded): (words, problem) = (worded(), nil)
            }
            return BadLine(line: line, excerpt: DeviceFile.excerpt(text), reason: words, tokenProblem: problem)
        }
    }

    /// The comments an `--unsent` list holds after their `# ` (the command layer writes them): the first line, the one
    /// before each device of unknown outcome, and the one saying where a stream's rest was left unread.
    public static let unsentHeader = "apnsctl send: the devices left without a final answer"
    public static let unsentUnknown = "unknown (may have been delivered; remove the '# ' to send again): "
    public static let unsentRest = "the rest of --devices "
    static let unsentComments = [unsentHeader, unsentUnknown, unsentRest]

    /// Parses line `number` of a list: blank lines and comments are skipped, a BOM on line 1 is dropped.
    static func parse(_ raw: String, number: Int, names: DeviceNameLookup? = nil) -> Line {
        var line = Substring(raw)
        if number == 1, line.first == "\u{FEFF}" { line = line.dropFirst() }
        guard let text = tokenText(line) else { return .skip }
        // The whole line counts, blanks included: a long line is never cut down into a token.
        let tooLong = line.utf8.count > maximumLineLength && line.unicodeScalars.count > maximumLineLength
        // The usual line needs nothing more: plain hex is never a name (names are refused when hex) nor a key.
        if !tooLong, let token = DeviceToken(plainHex: text) { return .token(token) }
        if let holding = keyMaterial(in: text) { return .keyMaterial(holding) }
        if text.unicodeScalars.contains("\u{FFFD}") {
            return .bad(
                UnwordedBadLine(
                    line: number, text: text,
                    reason: .name({ "not UTF-8 text (bytes of another encoding, Latin-1 say); save the list as UTF-8" })
                ))
        }
        if text.utf8.contains(0x0D) {
            let values = text.split(whereSeparator: { $0 == "\r" || $0 == "\r\n" }).filter {
                !$0.allSatisfy(\.isWhitespace)
            }
            if values.count > 1 { return .bad(UnwordedBadLine(line: number, text: text, reason: .carriageReturns)) }
        }
        if tooLong {
            return .bad(
                UnwordedBadLine(
                    line: number, text: text,
                    reason: .tooLong(
                        characters: line.unicodeScalars.count,
                        cut: raw.utf8.count >= LineReader.defaultBufferSize)))
        }
        if unsentComments.contains(where: { text.hasPrefix($0) }) {
            return .bad(UnwordedBadLine(line: number, text: text, reason: .unsentComment))
        }
        switch names?(text) ?? .notAName {
        case .token(let token): return .token(token)
        case .problem(let words): return .bad(UnwordedBadLine(line: number, text: text, reason: .name(words)))
        case .notAName: break
        }
        do { return .token(try DeviceToken(parsing: text)) } catch {
            // `TOKEN  # owner`, as exported lists carry: said as the comment it is, not as a token in parts. Only when
            // what comes before it is a value (a device named `QA iPhone #2` is no comment).
            let chars = Array(text)
            if let hash = chars.indices.first(where: {
                $0 > 0 && chars[$0] == "#" && (chars[$0 - 1] == " " || chars[$0 - 1] == "\t")
            }) {
                let before = String(chars[..<hash]).trimmingBlanks()
                var named = false
                if case .token? = names?(before) { named = true }
                if named || (try? DeviceToken(parsing: before)) != nil {
                    return .bad(UnwordedBadLine(line: number, text: text, reason: .trailingComment))
                }
            }
            return .bad(UnwordedBadLine(line: number, text: text, reason: .token(error)))
        }
    }

    /// What marks a line as part of a key or certificate rather than a list: a PEM boundary (`-----BEGIN …`,
    /// `-----END …`, anywhere in the line: a header or a byte-order mark may come first), or binary data (a NUL,
    /// or bytes that are not UTF-8, as in the first line of every DER key, certificate and .p12).
    static func keyMaterial(in text: String) -> KeyMaterial? {
        var dash = false
        var nul = false
        var high = false
        var control = false
        for byte in text.utf8 {
            if byte == 0x2D {
                dash = true
            } else if byte == 0 {
                nul = true
            } else if byte >= 0x80 {
                high = true
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0D || byte == 0x7F {
                control = true
            }
        }
        // DER's tags and lengths put control bytes in its first line; a line of text in another encoding (Latin-1)
        // has none, and is a bad line of the list, not a key. So is text with a stray NUL and nothing else unusual
        // (a bad copy, an editor's slip): binary data has other control bytes or bytes beyond ASCII beside it.
        if nul || high, nul || control && text.unicodeScalars.contains("\u{FFFD}") {
            if looksLikeUTF16(text) { return .utf16Text }
            return nul && !high && !control ? nil : .binaryData
        }
        if dash, text.contains("-----BEGIN") || text.contains("-----END") { return .pemBlock }
        return nil
    }

    /// Whether a line is ASCII text saved as UTF-16: a NUL beside each character, and nothing else but a
    /// byte-order mark (read as two U+FFFD) and line-end bytes.
    static func looksLikeUTF16(_ text: String) -> Bool {
        var zeros = 0
        var characters = 0
        var other = 0
        for byte in text.utf8 {
            if byte == 0 {
                zeros += 1
            } else if (0x20..<0x7F).contains(byte) || byte == 0x0D || byte == 0x09 {
                characters += 1
            } else {
                other += 1
            }
        }
        return zeros >= 4 && other <= 6 && abs(zeros - characters) <= 2
    }

    /// The first 8 characters (Unicode scalars, so no combining marks ride along) of a line that is not a token,
    /// escaped, with `…` when there was more.
    static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var head = String.UnicodeScalarView()
        head.append(contentsOf: scalars.prefix(8))
        return PrintableText.escapingControls(String(head)) + (scalars.dropFirst(8).isEmpty ? "" : "…")
    }

    /// The token on a line, or nil for blank lines and comments.
    /// Trimmed on the UTF-8 bytes (spaces and tabs are single bytes), and a line with nothing to trim is not copied.
    static func tokenText(_ line: Substring) -> String? {
        let utf8 = line.utf8
        var lo = utf8.startIndex
        var hi = utf8.endIndex
        while lo < hi, utf8[lo] == 0x20 || utf8[lo] == 0x09 { lo = utf8.index(after: lo) }
        while lo < hi {
            let last = utf8.index(before: hi)
            guard utf8[last] == 0x20 || utf8[last] == 0x09 else { break }
            hi = last
        }
        if lo == hi || utf8[lo] == 0x23 { return nil }
        if lo == line.base.startIndex && hi == line.base.endIndex { return line.base }
        return String(line[lo..<hi])
    }
}

/// What a device name stands for, asked for each `--devices` line (the settings' device names: this module
/// cannot see the settings, so the CLI passes the lookup in).
public enum DeviceNameAnswer: Sendable {
    /// Not a known name: the line is parsed as a token.
    case notAName
    /// A known name and its token.
    case token(DeviceToken)
    /// A name that cannot be used (unknown with a "did you mean", or a bad entry): the line is bad. The reason is
    /// worded only for a line that is reported, and never quotes the line (its excerpt comes before it).
    case problem(@Sendable () -> String)
}

/// Looks up one line's text among the device names.
public typealias DeviceNameLookup = @Sendable (String) -> DeviceNameAnswer

/// Reads tokens from a checked regular file as the sender asks for them.
final class DeviceFileSource: DeviceSource {
    private let reader: LineReader
    private let names: DeviceNameLookup?
    private let repeats: DeviceRepeats?
    /// The bytes the check read (nil: no check, any length).
    private let checkedBytes: Int?
    /// Lines that hold no token, skipped: those `--skip-invalid` skipped at the check, and any changed since.
    private(set) var badLines = 0
    /// The file ended before the bytes checked, inside a line: that line, cut short, was not sent.
    private(set) var wasCut = false
    /// The reader came to the file's end (or found its last line cut): no more will come.
    private(set) var reachedEnd = false
    /// Tokens returned so far (repeats are skipped in both passes, so this is comparable to the check's count).
    private(set) var tokensRead = 0
    var bytesRead: Int { reader.bytesRead }
    /// The lines read whole (a cut last line is not one).
    var linesRead: Int { wasCut ? reader.lineNumber - 1 : reader.lineNumber }

    /// Reads tokens through `reader`, skipping those `repeats` has seen.
    init(
        reader: LineReader, checkedBytes: Int? = nil, names: DeviceNameLookup? = nil, repeats: DeviceRepeats? = nil
    ) {
        (self.reader, self.checkedBytes, self.names, self.repeats) = (reader, checkedBytes, names, repeats)
    }

    /// The next token line, skipping blanks, comments and repeats.
    func next() -> DeviceToken? {
        while let line = reader.next() {
            // A last line without its line end, read before the bytes checked were: the file was cut inside it,
            // and what is left of the line is no token it held.
            if reader.lastLineUnterminated, let checkedBytes, reader.bytesRead < checkedBytes {
                wasCut = true
                reachedEnd = true
                return nil
            }
            // Checked when the file was opened; a line changed since then is skipped, never fatal.
            let token: DeviceToken
            switch DeviceFile.parse(line, number: reader.lineNumber, names: names) {
            case .skip: continue
            case .bad, .keyMaterial:
                badLines += 1
                continue
            case .token(let t): token = t
            }
            if repeats?.isRepeat(token, line: reader.lineNumber) == true { continue }
            tokensRead += 1
            return token
        }
        reachedEnd = true
        return nil
    }
}

/// Reads tokens from a stream (standard input, a FIFO) once, checking each line as it arrives; the first bad
/// line ends the list and is kept in `problem`. Memory holds one buffer, whatever the stream's length.
final class DeviceStreamSource: DeviceSource {
    private let reader: LineReader
    private let file: String
    private var peeked: DeviceToken?
    private(set) var problem: DeviceFile.Problem?
    private let names: DeviceNameLookup?
    private let repeats: DeviceRepeats?
    private let skipInvalid: Bool
    /// With `skipInvalid`: the first bad lines skipped, and how many in all.
    private var skippedLines: [DeviceFile.BadLine] = []
    private(set) var skippedCount = 0
    /// Tokens shorter than 32 bytes read so far.
    private(set) var shortTokens = ShortTokens()

    init(
        reader: LineReader, file: String, names: DeviceNameLookup? = nil, repeats: DeviceRepeats? = nil,
        skipInvalid: Bool = false
    ) {
        self.reader = reader
        self.file = file
        self.names = names
        self.repeats = repeats
        self.skipInvalid = skipInvalid
    }

    /// The bad lines skipped so far, as the list's problem (nil when none).
    var skipped: DeviceFile.Problem? {
        guard skippedCount > 0 else { return nil }
        return .badLines(file: file, lines: skippedLines, more: skippedCount - skippedLines.count)
    }

    /// Lines read so far.
    var linesRead: Int { reader.lineNumber }

    /// The stream's descriptor while it has no whole line to read. Lines that yield no token (blank, comments,
    /// repeats, bad ones skipped) are read here as they come, so that `next()` never waits behind one of them.
    func descriptorToWaitFor() -> Int32? {
        while peeked == nil && problem == nil {
            if let fd = reader.descriptorToWaitFor() { return fd }
            switch step() {
            case .token(let token): peeked = token
            case .passed: continue
            case .end: return nil
            }
        }
        return nil
    }

    /// The next token without taking it.
    func peek() -> DeviceToken? {
        if peeked == nil { peeked = read() }
        return peeked
    }

    /// The next token, nil at the end of the stream or at its first bad line.
    func next() -> DeviceToken? {
        if let token = peeked {
            peeked = nil
            return token
        }
        return read()
    }

    private func read() -> DeviceToken? {
        while true {
            switch step() {
            case .token(let token): return token
            case .passed: continue
            case .end: return nil
            }
        }
    }

    /// What one line gives: a token, nothing (a line passed over), or the end (of the stream, or at its first
    /// bad line).
    private enum Step {
        case token(DeviceToken)
        case passed
        case end
    }

    /// Whether nothing more is to come after what was read (the writer gone, nothing left buffered), whatever
    /// stopped the reading: a bad last line leaves no rest unread.
    var readerIsAtEnd: Bool { reader.isAtEnd }

    /// The tokens already read from the stream but not yet taken (its buffer), reading nothing more: after an
    /// interrupt they are listed as never sent instead of being lost with the buffer; the stream keeps the rest.
    func takeHeld() -> [DeviceToken] {
        var tokens = peeked.map { [$0] } ?? []
        peeked = nil
        while true {
            switch step(reading: false) {
            case .token(let token): tokens.append(token)
            case .passed: continue
            case .end: return tokens
            }
        }
    }

    private func step(reading: Bool = true) -> Step {
        guard problem == nil, let line = reading ? reader.next() : reader.nextBuffered() else { return .end }
        switch DeviceFile.parse(line, number: reader.lineNumber, names: names) {
        case .skip: return .passed
        case .token(let token):
            if repeats?.isRepeat(token, line: reader.lineNumber) == true { return .passed }
            shortTokens.note(token, line: reader.lineNumber)
            return .token(token)
        case .keyMaterial(let holding):
            problem = .keyFile(file: file, holding: holding)
            return .end
        case .bad(let bad):
            if skipInvalid {
                skippedCount += 1
                if skippedLines.count < DeviceFile.reportedBadLines { skippedLines.append(bad.reported) }
                return .passed
            }
            problem = .badLines(file: file, lines: [bad.reported], more: 0)
            return .end
        }
    }
}

/// Tokens shorter than 32 bytes in a list (CLI.md: each keeps its "cut short?" warning): the first few lines, and
/// how many in all.
struct ShortTokens {
    private(set) var lines: [Int] = []
    private(set) var count = 0

    mutating func note(_ token: DeviceToken, line: Int) {
        guard token.looksTruncated else { return }
        count += 1
        if lines.count < 5 { lines.append(line) }
    }
}
