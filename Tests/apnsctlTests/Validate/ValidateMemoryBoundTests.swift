import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": `validate` stays under 128 MiB for any input up to its 64 MiB cap. A 42 MB payload of
/// distinct keys took 656 MB: a tree of the whole document and a String and dictionary entry per key. Now only
/// what the rules read is kept (top-level members, then of `aps` its known keys and the first unknown ones), and
/// keys are found again by their offsets. Every shape below is one file of a single `validate` run: the peak of
/// one process validating them all one after another bounds each (and would show one file's memory kept for the
/// next), and the binary is started once, not 22 times.
@Suite struct ValidateMemoryBoundTests {
    /// The Live Activity payloads' timestamp: now, so validate (at the real clock) says nothing of it.
    static let now = SystemClock.now()

    /// `prefix` + `"key-000000000":1,…` + `suffix`, `size` bytes at most, every key distinct. Each member is the
    /// one before it copied and counted up in place (the tests are built without optimisation: a loop over the
    /// bytes of 60 MiB would take seconds).
    static func distinctKeys(size: Int, prefix: String = #"{"aps":{"alert":"hi"},"#, suffix: String = "}") -> [UInt8] {
        let (head, tail) = (Array(prefix.utf8), Array(suffix.utf8))
        let first = Array(#""key-000000000":1,"#.utf8)
        let digits = 5..<14  // of `first`
        let members = (size - head.count - tail.count) / first.count
        let total = head.count + members * first.count - 1 + tail.count  // the last member's comma dropped
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            head.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: head.count) }
            var member = base + head.count
            first.withUnsafeBufferPointer { member.initialize(from: $0.baseAddress!, count: first.count) }
            for _ in 1..<members {
                let next = member + first.count
                next.initialize(from: member, count: first.count)
                var i = digits.upperBound - 1
                while next[i] == UInt8(ascii: "9") {
                    next[i] = UInt8(ascii: "0")
                    i -= 1
                }
                next[i] += 1
                member = next
            }
            tail.withUnsafeBufferPointer {
                (member + first.count - 1).initialize(from: $0.baseAddress!, count: tail.count)
            }
            count = total
        }
    }

    /// One file of the run: its name, its bytes, and what `validate` must say of it (its own lines, its path, its size).
    struct Shape: Sendable {
        let name: String
        let file: String
        let bytes: @Sendable () -> [UInt8]
        let check: @Sendable (_ lines: [String], _ path: String, _ size: Int) -> Void
    }

    static let sixtyMiBOfDistinctKeys = Shape(
        name: "distinct keys", file: "distinct.json", bytes: { distinctKeys(size: 60 << 20) },
        check: { lines, path, size in
            #expect(lines.count == 1, "\(lines.prefix(3))")
            #expect(
                lines.first?.hasPrefix("\(path):1:1: error: (root): payload is \(size) bytes") == true,
                "\(lines.prefix(1))"
            )
        })

    /// 60 MiB of unknown keys inside `aps`: 219 MiB at 6 MiB before, and a warning line per key. Now the first 20
    /// are listed and the rest counted, and only those 20 are kept.
    static let sixtyMiBOfUnknownAPSKeys = Shape(
        name: "unknown aps keys", file: "aps.json",
        bytes: { distinctKeys(size: 60 << 20, prefix: #"{"aps":{"alert":"hi","#, suffix: "}}") },
        check: { lines, path, size in
            #expect(lines.count == 22, "the size error, 20 unknown keys and the count: \(lines.count) lines")
            #expect(lines.filter { $0.contains("unknown aps key \"key-") }.count == 20)
            #expect(
                lines.last?.contains(": warning: aps: ") == true
                    && lines.last?.contains(" more unknown aps keys not listed (") == true,
                "\(lines.suffix(1))")
        })

    /// A known key holding a huge object: `aps.alert` with 60 MiB of unknown keys.
    static let sixtyMiBInsideAPSAlert = Shape(
        name: "aps.alert keys", file: "alert.json",
        bytes: { distinctKeys(size: 60 << 20, prefix: #"{"aps":{"alert":{"body":"hi","#, suffix: "}}}") },
        check: { lines, path, size in
            #expect(lines.count == 22, "\(lines.count) lines")
            #expect(lines.filter { $0.contains("unknown alert key \"key-") }.count == 20)
            #expect(
                lines.last?.contains(": warning: aps.alert: ") == true
                    && lines.last?.contains(" more unknown alert keys not listed (") == true,
                "\(lines.suffix(1))")
        })

    /// `content-state`, the app's own data under a known key: 60 MiB of it is walked in the source, not kept.
    static let sixtyMiBOfContentState = Shape(
        name: "content-state", file: "state.json",
        bytes: {
            distinctKeys(
                size: 60 << 20,
                prefix: #"{"aps":{"event":"update","timestamp":\#(now),"content-state":{"at":1764151200,"#,
                suffix: "}}}")
        },
        check: { lines, path, size in
            #expect(lines.count == 2, "the size error and the date: \(lines)")
            #expect(
                lines.last?.contains(": warning: aps.content-state.at: 1764151200 looks like a UNIX time") == true,
                "\(lines.suffix(1))")
        })

    /// `prefix` + `"abcdefghijklmn","abcdefghijklmn",…` + `suffix`, `size` bytes at most: millions of short strings.
    static func shortStrings(size: Int, prefix: String, suffix: String) -> [UInt8] {
        let element = #""abcdefghijklmn","#
        let elements = (size - prefix.utf8.count - suffix.utf8.count) / element.utf8.count
        return repeated(element, length: elements * element.utf8.count - 1, between: prefix, and: suffix)
    }

    static let apnsBundle = #""Simulator Target Bundle":"com.example.app","#

    /// A 60 MiB `.apns` file was read whole into a tree for its bundle id, and its body written beside it: 282 MB
    /// for this one, 409 MB for distinct keys. Now it is read as a `.json` is, and the body only counted.
    static let sixtyMiBAPNSFile = Shape(
        name: ".apns file", file: "big.apns",
        bytes: {
            shortStrings(
                size: 60 << 20, prefix: "{" + apnsBundle + #""aps":{"alert":"hi"},"custom":["#, suffix: "]}")
        },
        check: { lines, path, size in
            #expect(lines.count == 1, "\(lines.prefix(3))")
            // The size is the body's, without the bundle key (the file has no whitespace to drop).
            let body = size - apnsBundle.utf8.count
            #expect(
                lines.first?.hasPrefix("\(path):1:1: error: (root): payload is \(body) bytes, ") == true,
                "\(lines.prefix(1))")
            #expect(lines.first?.contains("it is already compact") == true, "\(lines.prefix(1))")
        })

    /// `loc-args` was kept whole, a value per element: 282 MB for 60 MiB of short strings (884 MB for `"a"`s).
    /// Now its elements are checked in the source.
    static let sixtyMiBLocArgsArray = Shape(
        name: "loc-args", file: "args.json",
        bytes: {
            shortStrings(size: 60 << 20, prefix: #"{"aps":{"alert":{"loc-key":"K","loc-args":["#, suffix: "]}}}")
        },
        check: { lines, path, size in
            #expect(lines.count == 1, "the size error only: \(lines.prefix(3))")
            #expect(lines.first?.contains(": error: (root): payload is ") == true, "\(lines.prefix(1))")
        })

    /// `prefix` + `fill` repeated + `suffix`, 60 MiB at most: one huge string or key, whose opening quote ends
    /// `prefix`.
    static func oneHugeText(prefix: String, fill: String = "x", suffix: String) -> [UInt8] {
        let length = ((60 << 20) - prefix.utf8.count - suffix.utf8.count) / fill.utf8.count * fill.utf8.count
        return repeated(fill, length: length, between: prefix, and: suffix)
    }

    /// `prefix` + the first `length` bytes of `fill` repeated + `suffix`, filled by copies in one buffer, not by a
    /// loop over the bytes (the tests are built without optimisation).
    static func repeated(_ fill: String, length: Int, between prefix: String, and suffix: String) -> [UInt8] {
        let (head, fillBytes, tail) = (Array(prefix.utf8), Array(fill.utf8), Array(suffix.utf8))
        let total = head.count + length + tail.count
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            head.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: head.count) }
            let body = base + head.count
            fillBytes.withUnsafeBufferPointer {
                body.initialize(from: $0.baseAddress!, count: min(fillBytes.count, length))
            }
            var filled = min(fillBytes.count, length)
            while filled < length {
                let n = min(filled, length - filled)
                (body + filled).initialize(from: body, count: n)
                filled += n
            }
            tail.withUnsafeBufferPointer { (body + length).initialize(from: $0.baseAddress!, count: tail.count) }
            count = total
        }
    }

    /// One huge string or key, with what `validate` says of it after the size error.
    struct HugeText: Sendable, CustomTestStringConvertible {
        let name: String
        let prefix: String
        var fill = "x"
        let suffix: String
        let lines: [String]
        var testDescription: String { name }
    }

    static let hugeTexts = [
        HugeText(name: "aps.alert", prefix: #"{"aps":{"alert":""#, suffix: #""}}"#, lines: []),
        HugeText(name: "mdm", prefix: #"{"aps":{"alert":"hi"},"mdm":""#, suffix: #""}"#, lines: []),
        HugeText(name: "top-level key", prefix: #"{"aps":{"alert":"hi"},""#, suffix: #"":1}"#, lines: []),
        HugeText(
            name: "top-level key of é", prefix: #"{"aps":{"alert":"hi"},""#, fill: "é", suffix: #"":1}"#, lines: []),
        HugeText(
            name: "aps.event", prefix: #"{"aps":{"event":""#, suffix: #"","content-state":{}}}"#,
            lines: [
                #": error: aps.timestamp: Live Activity pushes need "timestamp""#,
                #": error: aps.event: event must be one of start, update, end, found string "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (62914521 bytes)"#,
            ]),
        HugeText(
            name: "input-push-channel",
            prefix:
                #"{"aps":{"event":"start","content-state":{},"attributes-type":"T","attributes":{},"alert":{"title":"t","body":"hi"},"input-push-channel":""#,
            suffix: #""}}"#,
            lines: [
                #": error: aps.timestamp: Live Activity pushes need "timestamp""#,
                #": error: aps.input-push-channel: input-push-channel must be a non-empty base64 channel id as apnsctl channel create prints it, found "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...""#,
            ]),
        HugeText(
            name: "aps key", prefix: #"{"aps":{"alert":"hi",""#, suffix: #"":1}}"#,
            lines: [
                #": warning: aps.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: unknown aps key "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." is ignored by APNs; put custom data beside "aps", at the top level"#
            ]),
        HugeText(
            name: "aps.badge", prefix: #"{"aps":{"alert":"hi","badge":""#, suffix: #""}}"#,
            lines: [
                #": error: aps.badge: badge must be a non-negative integer, found string "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (62914527 bytes); use a count such as 1, or 0 to remove the badge"#
            ]),
        HugeText(
            name: "aps.url-args", prefix: #"{"aps":{"alert":"hi","url-args":""#, suffix: #""}}"#,
            lines: [
                #": error: aps.url-args: url-args must be an array of strings, found string "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (62914524 bytes)"#
            ]),
        HugeText(
            name: "content-state key",
            prefix: #"{"aps":{"event":"update","timestamp":\#(Self.now),"content-state":{""#,
            suffix: #"":1764151200}}}"#,
            lines: [
                #": warning: aps.content-state.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: 1764151200 looks like a UNIX time;"#
            ]),
        HugeText(
            name: "aps.badge number", prefix: #"{"aps":{"alert":"hi","badge":"#, fill: "1", suffix: "}}",
            lines: [
                #": error: aps.badge: badge 1111111111111111111111111111111111111... is too large; use a count the app can show"#
            ]),
        HugeText(name: "mdm number", prefix: #"{"aps":{"alert":"hi"},"mdm":"#, fill: "1", suffix: "}", lines: []),
        HugeText(
            name: "content-state number",
            prefix: #"{"aps":{"event":"update","timestamp":\#(Self.now),"content-state":{"at":1764151200."#, fill: "0",
            suffix: "}}}",
            lines: [
                #": warning: aps.content-state.at: 1764151200.00000000000000000000000000... looks like a UNIX time;"#
            ]),
        HugeText(
            name: "aps key of escapes", prefix: #"{"aps":{"alert":"hi",""#, fill: #"\u0078"#, suffix: #"":1}}"#,
            lines: [
                #": warning: aps.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...: unknown aps key "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." is ignored by APNs; put custom data beside "aps", at the top level"#
            ]),
    ]

    /// Of one huge string or key the rules keep the start (`JSONReader.keptTextLimit`). Decoded whole it took
    /// 137 MB (`aps.alert`, `mdm`, a top-level key, `badge`), 148 MB (a key of escapes), 260 MB
    /// (`input-push-channel`, `url-args`), 266 MB (`aps.event`: "did you mean" folded it), 297 MB (a key of `é`)
    /// and 445 MB (an `aps` or `content-state` key: quoted whole); a number literal 137 MB, 260 MB when quoted. Each is
    /// reported as before, the huge text shortened, and no line is long.
    static func shape(_ huge: HugeText) -> Shape {
        Shape(
            name: huge.name, file: "huge.json",
            bytes: { oneHugeText(prefix: huge.prefix, fill: huge.fill, suffix: huge.suffix) },
            check: { lines, path, size in
                let shown = lines.map { String($0.prefix(400)) }
                #expect(lines.count == 1 + huge.lines.count, "\(huge.name): \(shown)")
                #expect(
                    lines.first?.hasPrefix("\(path):1:1: error: (root): payload is \(size) bytes") == true,
                    "\(huge.name): \(shown.prefix(1))")
                for (line, text) in zip(lines.dropFirst(), huge.lines) {
                    #expect(line.contains(text), "\(huge.name): \(line.prefix(400))")
                }
                #expect(
                    lines.allSatisfy { $0.utf8.count < 1000 }, "\(huge.name): line lengths \(lines.map(\.utf8.count))")
            })
    }

    /// A huge key given twice: it was decoded whole twice (291 MB for two of 30 MiB); now it is compared whole
    /// in the source and reported shortened.
    static let aThirtyMiBKeyGivenTwice = Shape(
        name: "a key twice", file: "twice.json",
        bytes: {
            let key = oneHugeText(prefix: "", suffix: "").prefix(30 << 20)
            return Array(#"{"aps":{"alert":"hi"},""#.utf8) + key + Array(#"":1,""#.utf8) + key + Array(#"":2}"#.utf8)
        },
        check: { lines, path, size in
            let shown = String(repeating: "x", count: 37) + "..."
            #expect(lines.count == 2, "\(lines.map { $0.prefix(300) })")
            #expect(
                lines.last?.contains(
                    ": warning: \(shown): duplicate key \"\(shown)\" (first at line 1, column 23); JSON parsers disagree"
                )
                    == true, "\(lines.map { $0.prefix(300) })")
        })

    static let shapes =
        [
            sixtyMiBOfDistinctKeys, sixtyMiBOfUnknownAPSKeys, sixtyMiBInsideAPSAlert, sixtyMiBOfContentState,
            sixtyMiBAPNSFile, sixtyMiBLocArgsArray, aThirtyMiBKeyGivenTwice,
        ] + hugeTexts.map(shape)

    /// Every shape written to one folder (each freed once written), then one `validate` of them all under
    /// /usr/bin/time: each file's own lines say what they said when each had a run of its own, and the one peak
    /// stays under 128 MiB.
    @Test func everyShapeOfSixtyMiBIsValidatedByOneProcessInUnder128MiB() async throws {
        try await offThePool {
            let directory = try TemporaryDirectory(prefix: "validate-memory")
            var files: [(shape: Shape, path: String, size: Int)] = []
            for (number, shape) in Self.shapes.enumerated() {
                var bytes = shape.bytes()
                let path = try directory.write("\(number + 10)-\(shape.file)", bytes)
                files.append((shape, path, bytes.count))
                bytes = []
            }
            let output = directory.file("out.txt")
            let shell = "out=$1; shift; \"$0\" -f maxrss_kb=%M \"$@\" > \"$out\""
            let run = try CommandRunner.run(
                "/bin/sh",
                ["-c", shell, "/usr/bin/time", output, CommandRunner.measuredPath, "validate"] + files.map(\.path),
                timeout: 600)
            #expect(run.status == 65, "\(run.stderr.suffix(600))")
            let lines = try directory.read("out.txt").split(separator: "\n").map(String.init)
            var owned = 0
            for file in files {
                let own = lines.filter { $0.hasPrefix(file.path + ":") }
                owned += own.count
                file.shape.check(own, file.path, file.size)
            }
            #expect(owned == lines.count, "every line names its file: \(lines.map { $0.prefix(200) })")
            let rss = run.stderr.split(separator: "\n").compactMap {
                $0.hasPrefix("maxrss_kb=") ? Int($0.dropFirst(10)) : nil
            }.first
            #expect(rss != nil, "\(run.stderr.suffix(300))")
            #expect((rss ?? .max) < 128 * 1024, "peak RSS \(rss ?? 0) kB of \(files.count) files")
        }
    }
}
