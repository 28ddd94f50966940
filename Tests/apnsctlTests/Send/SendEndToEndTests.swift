import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `apnsctl send`, the built binary, against the in-process mock behaving and misbehaving.
@Suite struct SendEndToEndTests {
    let scratch: TemporaryDirectory
    init() throws {
        scratch = try TemporaryDirectory(prefix: "send-e2e")
    }

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// Runs `send` with the push certificate against `server`, plus `extra` arguments.
    private func send(_ server: ObservedMock, _ extra: [String], timeout: Double = 60) throws -> CommandResult {
        try InProcess.apnsctl(
            [
                "send", "--cert", server.certificateFile, "--endpoint", server.endpoint,
                "--ca-file", server.caFile,
            ] + extra,
            environment: ["XDG_CACHE_HOME": scratch.path], timeout: timeout)
    }

    @Test func oneDeviceAcceptedTextLine() throws {
        let server = try ObservedMock()
        let r = try send(server, ["-d", Self.token(1)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 1)
        let line = try #require(r.lines.first)
        #expect(line.hasPrefix("accepted  200  0000…0001  apns-id="))
        // The sandbox's apns-unique-id ends the line, whole, after the duration.
        #expect(line.range(of: #" ms  unique-id=[0-9a-f-]{36}$"#, options: .regularExpression) != nil, "\(line)")
        #expect(line.contains("  sandbox  "))
        #expect(r.stderr.isEmpty)
    }

    @Test func jsonLinesHaveExactlyTheContractFields() throws {
        let server = try ObservedMock { $0.rules.unregistered = [Self.token(2)] }
        let r = try send(server, ["-d", Self.token(1), "-d", Self.token(2), "-o", "json"])
        #expect(r.status == 1)
        #expect(r.lines.count == 2)
        var seen: [String: [String: Any]] = [:]
        for line in r.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            // CLI.md: a rejected device's object also carries meaning and hint.
            let rejected: Set<String> = object["status"] as? Int == 200 ? [] : ["meaning", "hint"]
            #expect(
                Set(object.keys)
                    == Set([
                        "device", "status", "apns_id", "apns_unique_id", "reason", "timestamp",
                        "environment", "endpoint", "duration_ms",
                    ]).union(rejected))
            seen[object["device"] as? String ?? ""] = object
        }
        let ok = try #require(seen[Self.token(1)])
        #expect(ok["status"] as? Int == 200)
        #expect(ok["reason"] is NSNull)
        #expect(ok["endpoint"] as? String == server.endpoint)
        #expect(ok["environment"] as? String == "sandbox")
        let gone = try #require(seen[Self.token(2)])
        #expect(gone["status"] as? Int == 410)
        #expect(gone["reason"] as? String == "Unregistered")
        #expect((gone["timestamp"] as? Int ?? 0) > 1_700_000_000_000, "milliseconds since the epoch")
    }

    @Test func rejectedLinesExplainAndSummarise() throws {
        let server = try ObservedMock(rejections: [Self.token(2): .badDeviceToken]) {
            $0.rules.unregistered = [Self.token(3)]
        }
        let r = try send(server, ["-d", Self.token(1), "-d", Self.token(2), "-d", Self.token(3)])
        #expect(r.status == 1)
        #expect(r.lines.count == 4)
        #expect(
            r.lines.contains {
                $0.hasPrefix(
                    "rejected  400  BadDeviceToken  \(Self.token(2))  The token is not valid for this topic and environment. Tokens from a debug build need --env sandbox"
                )
            })
        #expect(
            r.lines.contains {
                $0.hasPrefix("rejected  410  Unregistered  \(Self.token(3))  ") && $0.contains("(since 20")
                    && $0.contains("Z).")
            })
        #expect(
            r.lines.last == "sent 3: 1 accepted, 2 rejected (BadDeviceToken 1, Unregistered 1)"
                || r.lines.last == "sent 3: 1 accepted, 2 rejected (Unregistered 1, BadDeviceToken 1)")
    }

    @Test func batchOf2000FromAFileGetsOneResultEach() throws {
        let server = try ObservedMock()
        let list = (0..<2000).map { Self.token($0 + 1) }.joined(separator: "\n")
        let file = try scratch.write("devices.txt", "# batch\n" + list + "\n")
        let r = try send(server, ["--devices", file, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2000)
        let devices = Set(r.lines.compactMap { line in line.split(separator: "\"")[safe: 3].map(String.init) })
        #expect(devices.count == 2000)
        #expect(server.answeringConnections == 1)
    }

    @Test func devicesFromStandardInput() throws {
        let server = try ObservedMock()
        let list = (1...5).map { Self.token($0) }.joined(separator: "\n")
        let r = try InProcess.apnsctl(
            [
                "send", "--cert", server.certificateFile, "--endpoint", server.endpoint,
                "--ca-file", server.caFile, "--devices", "-",
            ], stdin: Array(list.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.last == "sent 5: 5 accepted")
    }

    @Test func goAwayAfterNStreamsEveryDeviceOnce() throws {
        let server = try ObservedMock(faults: MockFaults(goAwayAfterStreams: 25, connections: 4))
        let file = try scratch.write("d.txt", (1...300).map { Self.token($0) }.joined(separator: "\n"))
        let r = try send(server, ["--devices", file, "-o", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 300)
        #expect(server.answeredDevices.count == 300)
        #expect(server.answeredDevices.values.allSatisfy { $0 == 1 })
    }

    @Test func connectionDroppedWithoutCloseNotifyAfterNAnswersEveryDeviceOnce() throws {
        let server = try ObservedMock(faults: MockFaults(eofAfterAnswers: 40, connections: 2))
        let file = try scratch.write("d.txt", (1...200).map { Self.token($0) }.joined(separator: "\n"))
        let r = try send(server, ["--devices", file, "-o", "json", "--concurrency", "50"])
        let unknown = r.lines.filter { $0.contains("\"delivery\":\"unknown\"") }.count
        #expect(unknown > 0 && r.status == 69, "\(r.stderr)")
        #expect(r.lines.count == 200)
        #expect(r.lines.filter { $0.contains("\"status\":200") }.count + unknown == 200)
        #expect(server.answeredDevices.values.allSatisfy { $0 == 1 })
    }

    @Test func silentServerEndsWithinTheTimeout() async throws {
        try await offThePool {
            let server = try ObservedMock(faults: MockFaults(neverAnswer: true))
            let r = try send(
                server, ["-d", Self.token(1), "-d", Self.token(2), "--timeout", "2", "-o", "json"], timeout: 20)
            #expect(r.status == 69)
            #expect(r.seconds < 20, "one --timeout, not several")
            #expect(r.lines.count == 2)
            #expect(
                r.lines.allSatisfy {
                    // Written whole, then no answer within --timeout: APNs may have delivered them (CLI.md).
                    $0.contains("\"status\":null")
                        && $0.contains("\"error\":\"unknown: no answer within 2 s; APNs may have delivered it")
                        && $0.contains("\"delivery\":\"unknown\"")
                })
            #expect(r.stderr.contains("error: no device got an answer"))
        }
    }

    @Test func refusedConnectionIs69() throws {
        let closed = try RefusingPort()
        defer { withExtendedLifetime(closed) {} }  // refusing until the test ends
        let port = closed.port
        let credentials = try ObservedMock()
        let certificate = credentials.certificateFile
        let r = try InProcess.apnsctl([
            "send", "--cert", certificate, "--endpoint", "https://127.0.0.1:\(port)",
            "-d", Self.token(1),
        ])
        #expect(r.status == 69)
        #expect(
            r.lines == [
                "failed    ---  \(Self.token(1))  cannot connect to 127.0.0.1:\(port): Connection refused; is the server running, and are --endpoint or --env right?"
            ])
        #expect(r.stderr.contains("error: no device got an answer: cannot connect"))
    }

    @Test func untrustedServerIs69WithVerificationAdvice() throws {
        let server = try ObservedMock()
        let r = try InProcess.apnsctl([
            "send", "--cert", server.certificateFile, "--endpoint", server.endpoint, "-d", Self.token(1),
        ])
        #expect(r.status == 69)
        #expect(r.stderr.contains("server certificate verification failed"))
        #expect(r.stderr.contains("--ca-file"))
    }

    /// A --ca-file that holds another CA: the failure names the file and the CA the server's chain wants, and the
    /// advice is to give that CA, not "pass --ca-file" to a user who did.
    @Test func aCAFileHoldingAnotherCANamesTheFileAndTheIssuer() throws {
        let server = try ObservedMock()
        let other = try TestCredentials()
        let r = try InProcess.apnsctl([
            "send", "--cert", server.certificateFile, "--endpoint", server.endpoint, "--ca-file", other.caFile,
            "-d", Self.token(1),
        ])
        #expect(r.status == 69)
        #expect(
            r.stderr.contains(
                "; the CA file \(other.caFile) does not hold the CA that issued it (apnsctl mock CA); give --ca-file the CA that issued it, or --insecure to skip the check (unsafe)\n"
            ), "\(r.stderr)")
        #expect(!r.stderr.contains("searched"), "\(r.stderr)")
    }

    @Test func insecureSkipsVerificationWithAWarning() throws {
        let server = try ObservedMock()
        let r = try InProcess.apnsctl([
            "send", "--cert", server.certificateFile, "--endpoint", server.endpoint,
            "--insecure", "-d", Self.token(1),
        ])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("warning: --insecure"))
    }

    @Test func http1OnlyServerIs69WithAClearMessage() throws {
        let server = try ObservedMock(faults: MockFaults(http1Only: true))
        let r = try send(server, ["-d", Self.token(1)])
        #expect(r.status == 69)
        #expect(r.stderr.contains("HTTP/2"))
    }

    @Test func tokenAuthSendsAndNeverPrintsTheToken() throws {
        let server = try ObservedMock()
        let r = try InProcess.apnsctl(
            [
                "send", "--auth-key", server.authKeyFile, "--team-id", server.teamID,
                "--topic", "com.example.demo", "--endpoint", server.endpoint,
                "--ca-file", server.caFile, "-d", Self.token(1), "--verbose",
            ],
            environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 0, "\(r.stderr)")
        let cached = try String(
            contentsOfFile: scratch.path + "/apnsctl/token-\(server.teamID)-\(server.keyID).jwt", encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(cached.count > 100)
        #expect(!r.stdout.contains(cached) && !r.stderr.contains(cached))
        #expect(!r.stderr.contains(String(cached.dropFirst(10).prefix(30))))
        #expect(r.stderr.contains("> authorization: bearer \(cached.prefix(10))…"))
        #expect(r.stderr.contains("TLSv1.3") && r.stderr.contains("ALPN h2"))
        #expect(r.stderr.contains("< :status: 200"))
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}
