import APNSTestSupport
import Foundation
import Testing

/// CLI.md, `send`, "Input and output at the edges": a token reached twice — by `-d`, by a device name, by a line of
/// `--devices` (file or pipe), compared after parsing — is sent once, with one warning; what was sent is judged by
/// the mock's receipt log.
@Suite struct BatchRepeatTests {
    static let named = SettingsSendTests.Setup.token
    static let other = "ab00000000000000000000000000000000000000000000000000000000000001"
    static let flagged = "ab00000000000000000000000000000000000000000000000000000000000002"

    /// Line 2 the token, 3 its upper case, 4 its Xcode form, 6 a name, 7 that name's hex, 8 a `-d` token again.
    static let list =
        [
            "# devices", other, other.uppercased(), DeviceFlagTests.xcode(other), "", "my-iphone", named, flagged,
        ].joined(separator: "\n") + "\n"

    @Test(arguments: ["file", "pipe"])
    func repeatsInEveryFormAreSentOnceWithOneWarning(_ how: String) async throws {
        try await offThePool {
            let s = try SettingsSendTests.Setup()
            try s.writeDevProfile()
            let scratch = try TemporaryDirectory(prefix: "repeats")
            let path = how == "file" ? try scratch.write("tokens.txt", Self.list) : "-"
            let r = try s.home.run(
                ["send", "--alert", "hi", "-d", Self.flagged, "--devices", path, "-o", "json"],
                stdin: how == "pipe" ? Array(Self.list.utf8) : nil)
            #expect(r.status == 0, "\(r.stderr)")
            let results = SendDeliveryTests.devices(in: r.lines)
            #expect(
                results.sorted() == [Self.named, Self.flagged, Self.other].sorted(), "one result each: \(r.stdout)")
            let receipts = s.mock.receiptsPerDevice(expectingAtLeast: 3)
            #expect(receipts == [Self.named: 1, Self.flagged: 1, Self.other: 1], "\(receipts)")
            let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
            #expect(
                warnings == ["warning: 4 repeated tokens were sent once (first: --devices \(path):3 repeats line 2)"],
                "\(r.stderr)")
        }
    }

    /// A file line repeating a `-d` token names the flag; the count a regular file is known by leaves the repeats out.
    @Test func aLineRepeatingADeviceFlagNamesIt() throws {
        let mock = try InProcessMock([], keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "repeats")
        let path = try scratch.write("tokens.txt", Self.flagged + "\n" + Self.other + "\n")
        let r = try InProcess.apnsctl(
            DeviceListStreamingTests.send(mock, ["-d", Self.other, "--devices", path]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: 1 repeated token was sent once (first: --devices \(path):2 repeats --device 1)"),
            "\(r.stderr)")
        #expect(r.lines.last == "sent 2: 2 accepted", "\(r.stdout)")
        #expect(mock.receiptsPerDevice(expectingAtLeast: 2) == [Self.other: 1, Self.flagged: 1])
    }

    /// Repeats among the `-d` flags and among a list's lines, in one run, are one warning counting both (the flags
    /// come first, so the first repeat is a flag's).
    @Test(arguments: ["file", "pipe"])
    func flagAndLineRepeatsAreOneWarning(_ how: String) async throws {
        try await offThePool {
            let mock = try InProcessMock([], keepingLog: true)
            let scratch = try TemporaryDirectory(prefix: "repeats")
            let list = Self.other + "\n" + Self.flagged + "\n" + Self.other + "\n"
            let path = how == "file" ? try scratch.write("tokens.txt", list) : "-"
            let r = try InProcess.apnsctl(
                DeviceListStreamingTests.send(mock, ["-d", Self.flagged, "-d", Self.flagged, "--devices", path]),
                stdin: how == "pipe" ? Array(list.utf8) : nil)
            #expect(r.status == 0, "\(r.stderr)")
            let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
            #expect(
                warnings == ["warning: 3 repeated tokens were sent once (first: --device 2 repeats --device 1)"],
                "\(r.stderr)")
            #expect(mock.receiptsPerDevice(expectingAtLeast: 2) == [Self.other: 1, Self.flagged: 1])
        }
    }

    /// A 64-character line that is hex but for one character is a malformed token naming it, even where device names
    /// are defined (it used to be "unknown device name").
    @Test func aNearlyHexLineIsAMalformedTokenNotAnUnknownName() throws {
        let s = try SettingsSendTests.Setup()
        try s.writeDevProfile()
        let typo = String(Self.named.dropLast(3)) + "g1d"
        let scratch = try TemporaryDirectory(prefix: "typo")
        let path = try scratch.write("tokens.txt", Self.named + "\n" + typo + "\n")
        let r = try s.home.run(["send", "--alert", "hi", "--devices", path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--devices \(path):2: "), "\(r.stderr)")
        #expect(r.stderr.contains("found 'g'"), "\(r.stderr)")
        #expect(!r.stderr.contains("unknown device name"), "\(r.stderr)")
        let flag = try s.home.run(["send", "--alert", "hi", "-d", typo])
        #expect(flag.status == 64 && flag.stderr.contains("found 'g'"), "\(flag.stderr)")
    }

    /// A million distinct tokens from a pipe: each sent once, and the set of tokens seen stays small (CLI.md: under
    /// 100 MiB of peak memory; `make bench` prints the figure).
    @Test func aMillionDistinctTokensFromAPipeStayUnder100MiB() async throws {
        try await offThePool {
            let (_, rss) = try DeviceListStreamingTests.pipedSend(count: 1_000_000)
            #expect(rss != nil)
            #expect((rss ?? .max) < 100 * 1024, "peak RSS \(rss ?? 0) kB")
        }
    }
}
