import APNSTestSupport
import Foundation
import Testing
@testable import APNSCtlCommands

/// CLI.md, `send`, "Input and output at the edges": repeated `-d` tokens are sent once with a warning, and
/// thousands of `-d` flags parse in linear time.
@Suite struct DeviceFlagTests {
    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    /// Xcode's `<xxxxxxxx xxxxxxxx …>` form of a hex token.
    static func xcode(_ hex: String) -> String {
        var groups: [String] = []
        var rest = Substring(hex)
        while !rest.isEmpty { groups.append(String(rest.prefix(8))); rest = rest.dropFirst(8) }
        return "<" + groups.joined(separator: " ") + ">"
    }

    @Test func aRepeatedTokenIsSentOnceWithAWarning() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let a = Self.token(1), b = Self.token(2)
        let r = try InProcess.apnsctl(["send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                                           "-d", a, "-d", b, "--device", a.uppercased(), "--device=\(Self.xcode(a))",
                                           "-d", String(Self.xcode(a).dropFirst().dropLast()), "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2, "\(r.stdout)")
        #expect(r.stderr.contains("warning: --device \(a) was given 4 times; it is sent once"), "\(r.stderr)")
        #expect(!r.stderr.contains(b), "\(r.stderr)")
        #expect(mock.answersPerDevice(expectingAtLeast: 2) == [a: 1, b: 1])
    }

    /// 10,000 `-d` flags and a bad last one: the parser used to take minutes (quadratic); now the error comes
    /// at once. Generous bound for a debug build on a busy machine; the ratio lives in `make bench`.
    @Test func tenThousandDeviceFlagsParseQuickly() throws {
        var args = ["send", "--cert", "/nonexistent/cert.pem"]
        for i in 1...10_000 { args += ["-d", Self.token(i)] }
        args += ["-d", "zz"]
        let r = try InProcess.apnsctl(args, timeout: 60)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: --device \"zz\" (device 10001): the device token must be hex"), "\(r.stderr)")
        #expect(r.seconds < 10, "\(r.seconds) s")
    }

    @Test func onlyDeviceFlagsWithAValueLeaveTheParser() {
        let split = DeviceFlagArguments.extract(["p.json", "-d", "aa", "--device", "bb", "--device=cc", "--topic", "x",
                                                 "-d", "--verbose", "--", "-d", "dd", "-d"])
        #expect(split.tokens == ["aa", "bb", "cc"])
        #expect(split.rest == ["p.json", "--topic", "x", "-d", "--verbose", "--", "-d", "dd", "-d"])
        #expect(DeviceFlagArguments.extract(["-d"]).rest == ["-d"])
    }

    /// Parser parity: after an option that takes a value, `-d TOKEN` is that option's value to the parser, so
    /// `--title -d TOKEN p.json` is its usage error (exit 64), never an alert titled "p.json". Every option of
    /// `send` that takes a value, in-process as the binary runs it.
    @Test func aDeviceFlagAfterAnOptionIsThatOptionsMissingValue() throws {
        let options = SendQuickParser.arguments.filter { !$0.names.isEmpty && $0.kind != .flag }.flatMap(\.names)
        #expect(options.contains("--title") && options.contains("-d"))
        for option in options {
            let arguments = [option, "-d", Self.token(1), "p.json", "--dry-run"]
            #expect(throws: (any Error).self, "the parser refuses \(arguments)") { try APNSCtl.Send.parseAsRoot(arguments) }
            let world = TestWorld()
            let status = world.run(["send"] + arguments)
            #expect(status == 64, "send \(arguments.joined(separator: " ")): exit \(status): \(world.stderr.text)")
        }
        #expect(DeviceFlagArguments.extract(["--title", "-d", "aa", "p.json"]).tokens.isEmpty)
        #expect(DeviceFlagArguments.extract(["--title=x", "-d", "aa", "--verbose", "-d", "bb"]).tokens == ["aa", "bb"])
    }
}
