import APNSTestSupport
import Foundation
import Testing

@testable import APNSClient
@testable import APNSCtlCommands

/// CLI.md, "Exit codes": a file given as `--devices` by mistake may hold a secret. A line that is not a token
/// is quoted by its first 8 characters at most, nothing decoded from it is printed (hex only for base64 of a
/// token's 32 bytes), a key or certificate file is refused without quoting it, and did-you-mean suggestions
/// cost time only for the lines printed. Run in-process, from a regular file and from a pipe (the two paths
/// differ: a file is checked whole, a pipe stops at its first bad line).
@Suite struct DeviceListSecretsTests {
    static let token = "3f2a000000000000000000000000000000000000000000000000000000009c1d"

    /// The bytes of a PEM key in every form a message could leak them: its base64 lines from their second
    /// character on (a line's first 8 may be quoted), and the hex of its DER, in either case.
    struct KeyBytes {
        let bodyLines: [String]
        let der: [UInt8]

        init(pem: String) throws {
            bodyLines = pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && !$0.isEmpty }
            der = try #require(Data(base64Encoded: bodyLines.joined())).map { $0 }
            #expect(der.count > 100, "a real key")
        }

        /// Every fragment of the key found in `text`: 8-character windows of a base64 line that reach past its
        /// first 8 characters, and 8-byte windows of the DER as hex.
        func leaks(in text: String) -> [String] {
            var found: [String] = []
            for line in bodyLines where line.count > 8 {
                let chars = Array(line)
                for start in 1...(chars.count - 8) {
                    let window = String(chars[start..<start + 8])
                    if text.contains(window) { found.append(window) }
                }
            }
            let hex = der.map { String(format: "%02x", $0) }.joined()
            let digits = Array(hex)
            for start in stride(from: 0, through: digits.count - 16, by: 2) {
                let window = String(digits[start..<start + 16])
                if text.contains(window) || text.contains(window.uppercased()) { found.append(window) }
            }
            return found
        }
    }

    /// A pipe holding `bytes` whose writing end is closed (what `cat FILE | apnsctl send --devices -` reads).
    static func pipe(_ bytes: [UInt8]) throws -> Pipe {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(bytes))
        try pipe.fileHandleForWriting.close()
        return pipe
    }

    /// `send --devices FILE` in-process (the list is refused before credentials are read), and the same list
    /// through a pipe as `--devices -`; each run's status and everything it printed.
    static func sendBoth(
        _ list: String, in dir: TemporaryDirectory, settings: InProcessSettingsTests.World? = nil,
        extra: [String] = []
    ) throws -> [(name: String, status: Int32, output: String)] {
        try sendBoth(Array(list.utf8), in: dir, settings: settings, extra: extra)
    }

    static func sendBoth(
        _ list: [UInt8], in dir: TemporaryDirectory, settings: InProcessSettingsTests.World? = nil,
        extra: [String] = []
    ) throws -> [(name: String, status: Int32, output: String)] {
        let file = try dir.write("list-\(UUID().uuidString)", list, mode: 0o600)
        var runs: [(String, Int32, String)] = []
        for (name, path) in [("file", file), ("pipe", "-")] {
            let input = try pipe(path == "-" ? list : [])
            let world = TestWorld(
                variables: settings?.world.variables ?? [:], home: settings?.world.home ?? dir.path,
                standardInput: input.fileHandleForReading.fileDescriptor)
            let status = world.run(try Self.dryRun(in: dir) + ["--devices", path] + extra)
            runs.append((name, status, world.stdout.text + world.stderr.text))
        }
        return runs
    }

    /// `send --dry-run` with a certificate: nothing connects, and the list is checked before the credentials are.
    static func dryRun(in dir: TemporaryDirectory) throws -> [String] {
        let cert =
            FileManager.default.fileExists(atPath: dir.file("push.pem"))
            ? dir.file("push.pem")
            : try dir.pem("push.pem", CredentialFixtures.development)
        return ["send", "--dry-run", "--cert", cert, "--alert", "hi"]
    }

    /// A settings file that defines device names (and nothing else), plus `more` lines.
    static func namesWorld(_ more: String = "") throws -> InProcessSettingsTests.World {
        try InProcessSettingsTests.World(config: "[devices]\nmy-iphone = \"\(token)\"\n" + more)
    }

    @Test(arguments: ["p8", "rsa"])
    func aKeyGivenAsADeviceListIsRefusedWithoutAByteOfIt(kind: String) throws {
        let dir = try TemporaryDirectory(prefix: "devices-key")
        let pem =
            kind == "p8"
            ? try CredentialFixtures.signingKey.p8PEM
            : try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil)
        let text = String(decoding: pem, as: UTF8.self)
        let key = try KeyBytes(pem: text)
        for run in try Self.sendBoth(text, in: dir) {
            #expect(run.status == 64, "\(kind) \(run.name): \(run.output)")
            #expect(
                run.output.contains("a key or certificate file, not a device list"),
                "\(kind) \(run.name): \(run.output)")
            #expect(
                key.leaks(in: run.output).isEmpty,
                "\(kind) \(run.name) printed \(key.leaks(in: run.output).prefix(3)): \(run.output)")
            #expect(!run.output.contains("MII") && !run.output.contains("BEGIN"), "not quoted at all: \(run.output)")
        }
        // A certificate and its key in one file (what `openssl pkcs12 -nodes` writes) is refused the same way.
        let bundle = "Bag Attributes\n    friendlyName: push\n" + text
        for run in try Self.sendBoth(bundle, in: dir) where run.name == "file" {
            #expect(run.status == 64 && run.output.contains("not a device list"), "\(run.output)")
            #expect(key.leaks(in: run.output).isEmpty, "\(run.output)")
        }
    }

    @Test(arguments: ["p8", "rsa", "certificate"])
    func aDERKeyOrCertificateIsRefusedUnquoted(kind: String) throws {
        let dir = try TemporaryDirectory(prefix: "devices-der")
        let pem =
            kind == "p8"
            ? try CredentialFixtures.signingKey.p8PEM
            : kind == "rsa"
                ? try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil)
                : CredentialFixtures.development.certificate.pem
        let der = try KeyBytes(pem: String(decoding: pem, as: UTF8.self)).der
        for run in try Self.sendBoth(der, in: dir) {
            #expect(run.status == 64, "\(kind) \(run.name): \(run.output)")
            #expect(
                run.output.contains("a key or certificate file, not a device list (it holds binary data"),
                "\(kind) \(run.name): \(run.output)")
            #expect(
                run.output.split(separator: "\n").count == 1 && !run.output.contains(": \""),
                "no line is quoted: \(run.output)")
        }
    }

    /// A stray NUL in a list of text (a bad copy, an editor's slip) makes that line a bad line, named by its number;
    /// the list was called a key or certificate file. A NUL beside other binary bytes still marks a key.
    @Test func aStrayNULIsABadLineNotAKeyFile() throws {
        let dir = try TemporaryDirectory(prefix: "devices-nul")
        // First: a dry run from a pipe reads only up to the first token.
        let list = String(Self.token.dropLast()) + "\u{0}\n" + Self.token + "\n"
        for run in try Self.sendBoth(list, in: dir) {
            #expect(run.status == 64, "\(run.name): \(run.output)")
            #expect(!run.output.contains("key or certificate"), "\(run.name): \(run.output)")
            #expect(run.output.contains(":1: \""), "\(run.name) names line 1: \(run.output)")
        }
        #expect(DeviceFile.keyMaterial(in: "ab\u{0}cd") == nil)
        #expect(DeviceFile.keyMaterial(in: "0\u{3}\u{0}\u{1}") == .binaryData)
    }

    @Test func aKeysBase64LinesAloneGetTheBase64HintButNothingDecoded() throws {
        // The body of a key without its BEGIN line: each line looks like base64 of 48 bytes, not a token's 32.
        let dir = try TemporaryDirectory(prefix: "devices-body")
        let pem = String(
            decoding: try CredentialFixtures.development.privateKey.pkcs8PEM(passphrase: nil), as: UTF8.self)
        let key = try KeyBytes(pem: pem)
        for run in try Self.sendBoth(key.bodyLines.joined(separator: "\n") + "\n", in: dir) {
            #expect(run.status == 64, "\(run.name): \(run.output)")
            #expect(run.output.contains("looks like base64"), "\(run.name): \(run.output)")
            #expect(
                key.leaks(in: run.output).isEmpty,
                "\(run.name) printed \(key.leaks(in: run.output).prefix(3)): \(run.output)")
        }
        // The same lines as -d: the hint decodes nothing either, and each is quoted by its first 8 characters, as a
        // list's line is (its 40 held most of the private key).
        // Also two lines pasted as one value, and a 70-character line as OpenSSH's keys have (no base64 length).
        let shapes = [key.bodyLines[0] + " " + key.bodyLines[1], key.bodyLines[1] + key.bodyLines[2].prefix(6)]
        for line in key.bodyLines + shapes {
            let world = TestWorld(home: dir.path)
            #expect(world.run(try Self.dryRun(in: dir) + ["-d", line]) == 64)
            let quoted = line.count > 8 ? line.prefix(8) + "…" : line[...]
            #expect(world.stderr.text.contains("--device \"\(quoted)\""), "\(world.stderr.text)")
            #expect(key.leaks(in: world.stderr.text).isEmpty, "\(world.stderr.text)")
        }
    }

    /// What is quoted to 40 characters: a token's shapes and a typo of a device name the file has. A value of a
    /// name's shape that is near no name (a password given to -d) is quoted by 8, with or without names defined.
    @Test func onlyATokensShapeOrAMistypedNameIsQuotedWhole() throws {
        let dir = try TemporaryDirectory(prefix: "devices-quoted")
        let settings = try Self.namesWorld()
        let nearlyHex = String(Self.token.dropLast()) + "g"
        for (value, names, quoted) in [
            (nearlyHex, false, String(nearlyHex.prefix(40)) + "…"),
            (Self.token + " " + Self.token, false, String(Self.token.prefix(40)) + "…"),
            ("my-iphonee", true, "my-iphonee"),
            ("secretpassword1234567", true, "secretpa…"),
            ("secretpassword1234567", false, "secretpa…"),
        ] {
            let world = TestWorld(
                variables: names ? settings.world.variables : [:], home: names ? settings.world.home : dir.path)
            #expect(world.run(try Self.dryRun(in: dir) + ["-d", value]) == 64)
            #expect(world.stderr.text.hasPrefix("error: --device \"\(quoted)\""), "\(value): \(world.stderr.text)")
        }
    }

    @Test func base64OfAToken32BytesStillGetsItsHex() throws {
        let dir = try TemporaryDirectory(prefix: "devices-base64")
        let base64 = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let hex = (0..<32).map { String(format: "%02x", $0) }.joined()
        for run in try Self.sendBoth("\(base64)\n", in: dir) {
            #expect(run.status == 64, "\(run.name): \(run.output)")
            #expect(run.output.contains("looks like base64") && run.output.contains(hex), "\(run.name): \(run.output)")
        }
    }

    @Test func aPassphraseFileIsQuotedByEightCharactersWithDeviceNamesDefined() throws {
        let settings = try Self.namesWorld()
        let dir = try TemporaryDirectory(prefix: "devices-passphrase")
        for passphrase in ["correct-horse-battery-staple", "Tr0ub4dor.and.3.more"] {
            for run in try Self.sendBoth("\(passphrase)\n", in: dir, settings: settings) {
                #expect(run.status == 64, "\(run.name): \(run.output)")
                #expect(run.output.contains("unknown device name"), "\(run.name): \(run.output)")
                #expect(run.output.contains("\"\(passphrase.prefix(8))…\""), "the first 8 characters: \(run.output)")
                #expect(
                    !run.output.contains(passphrase.prefix(9)),
                    "\(run.name) quoted more than 8 characters: \(run.output)")
            }
        }
    }

    @Test func suggestionsAreComputedOnlyForThePrintedLines() throws {
        // 12,000 names and 12,000 near misses of them: one suggestion per printed line (20), not per line.
        let count = 12_000
        let names = (0..<count).map { String(format: "device-%05d", $0) }
        let settings = try Self.namesWorld(names.map { "\($0) = \"\(Self.token)\"\n" }.joined())
        let dir = try TemporaryDirectory(prefix: "devices-suggest")
        let list = try dir.write("names.txt", (0..<count).map { String(format: "devixe-%05d\n", $0) }.joined())
        let world = TestWorld(variables: settings.world.variables, home: settings.world.home)
        let started = Date()
        let status = world.run(try Self.dryRun(in: dir) + ["--devices", list])
        let seconds = Date().timeIntervalSince(started)
        #expect(status == 64, "\(world.stderr.text.prefix(600))")
        #expect(seconds < 10, "\(seconds) s")
        let lines = world.stderr.lines
        #expect(lines.count == 21, "\(lines.prefix(3))")
        #expect(
            lines.first
                == "error: --devices \(list):1: \"devixe-0…\": unknown device name; did you mean \"device-00000\"?",
            "\(lines.first ?? "")")
        #expect(lines.last == "error: --devices \(list): … and \(count - 20) more bad lines")
    }
}
