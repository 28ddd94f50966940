import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// CLI.md, `send`, "Input and output at the edges": repeated `-d` tokens are sent once with a warning.
@Suite struct DeviceFlagTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    /// Xcode's `<xxxxxxxx xxxxxxxx …>` form of a hex token.
    static func xcode(_ hex: String) -> String {
        var groups: [String] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(8)))
            rest = rest.dropFirst(8)
        }
        return "<" + groups.joined(separator: " ") + ">"
    }

    @Test func aRepeatedTokenIsSentOnceWithAWarning() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let a = Self.token(1)
        let b = Self.token(2)
        let r = try InProcess.apnsctl([
            "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
            "-d", a, "-d", b, "--device", a.uppercased(), "--device=\(Self.xcode(a))",
            "-d", String(Self.xcode(a).dropFirst().dropLast()), "-o", "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2, "\(r.stdout)")
        #expect(r.stderr.contains("warning: --device \(a) was given 4 times; it is sent once"), "\(r.stderr)")
        #expect(!r.stderr.contains(b), "\(r.stderr)")
        #expect(mock.answersPerDevice(expectingAtLeast: 2) == [a: 1, b: 1])
        // Several tokens repeated: one warning (CLI.md), as for a list, not one per token. A dry run sends nothing,
        // and says what the run would do (it said "were sent once").
        let dry = [
            "send", "--cert", mock.certificate, "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--dry-run",
        ]
        let many = try InProcess.apnsctl(
            dry + (1...30).flatMap { ["-d", Self.token($0), "-d", Self.token($0)] } + ["--alert", "x"])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(
            many.errorLines == [
                "warning: 30 repeated tokens would be sent once (first: --device 2 repeats --device 1)"
            ],
            "\(many.stderr)")
        let one = try InProcess.apnsctl(dry + ["-d", a, "-d", a, "--alert", "x"])
        #expect(one.errorLines == ["warning: --device \(a) was given 2 times; it would be sent once"], "\(one.stderr)")
        let scratch = try TemporaryDirectory(prefix: "dry-repeats")
        let list = try scratch.write("tokens.txt", "\(a)\n\(b)\n\(a)\n")
        let listed = try InProcess.apnsctl(dry + ["--devices", list, "--alert", "x"])
        #expect(
            listed.errorLines == [
                "warning: 1 repeated token would be sent once (first: --devices \(list):3 repeats line 1)"
            ],
            "\(listed.stderr)")
        #expect(mock.answersPerDevice(expectingAtLeast: 2) == [a: 1, b: 1], "the dry runs sent nothing")
    }

    /// Several tokens pasted into one value (a space, a comma or semicolon of a list) are said to be a list, with
    /// how to give them; an empty standard input is called that, not a file. Nothing is sent (exit 64).
    @Test func aListPastedAsOneValueAndAnEmptyInputAreSaidSo() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "device-lists")
        let (a, b) = (Self.token(1), Self.token(2))
        let file = try scratch.write("devices.txt", "\(a);\(b)\n")
        let perDevice = "; give one token per --device, one per line in a --devices file"
        let cases: [(arguments: [String], stdin: String?, said: String)] = [
            (["-d", "\(a) \(b)"], nil, "whitespace inside the value (2 parts), so it is not one token" + perDevice),
            (["-d", "\(a),\(b)"], nil, "the device token must be hex, found ',' (a list of tokens?)" + perDevice),
            (
                ["--devices", file], nil,
                "the device token must be hex, found ';' (a list of tokens?); give one per line"
            ),
            (
                ["--devices", "-"], "",
                "--devices -: no device tokens on standard input (blank lines and # comments are skipped)"
            ),
            (
                ["-d", #"["\#(a)","\#(b)"]"#], nil,
                "the device token must be hex, found '['; a list of tokens? give one token per --device, one per "
                    + "line in a --devices file"
            ),
        ]
        for (arguments, stdin, said) in cases {
            let r = try InProcess.apnsctl(
                ["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate]
                    + arguments + ["--alert", "hi"], stdin: stdin.map { Array($0.utf8) })
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(
                r.errorLines.count == 1 && r.stderr.hasPrefix("error: ") && r.stderr.hasSuffix(said + "\n"),
                "\(r.stderr)")
        }
        #expect(mock.answeredRequests().isEmpty)
    }

    /// 1,000 `-d` flags and a bad last one: the error names the device by its position. swift-argument-parser
    /// handles a repeated option in time quadratic in its count (1,000 take about 2 s in a debug build, 4,000
    /// about 25 s), so thousands of tokens belong in `--devices`; the figures are in `make bench`.
    @Test func aThousandDeviceFlagsEndAtTheBadOne() throws {
        var args = ["send", "--cert", "/nonexistent/cert.pem"]
        for i in 1...1_000 { args += ["-d", Self.token(i)] }
        args += ["-d", "zz"]
        let r = try InProcess.apnsctl(args, timeout: 60)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: --device \"zz\" (device 1001): the device token must be hex"), "\(r.stderr)")
        // A debug build takes under 2 s alone and took 12 s on a machine loaded elevenfold: the bound still
        // catches a parse that became some twenty times slower.
        #expect(r.seconds < 30, "\(r.seconds) s")
    }
}
