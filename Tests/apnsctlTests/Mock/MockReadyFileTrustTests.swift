import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, "Exit codes": `mock.json` decides where `-p mock` sends the user's provider token, so it is used only
/// when it is ours. Played as the attack was: another local user who can write the state location plants a
/// `mock.json` naming their own server (a running mock that logs every request it receives); the victim's
/// `send -p mock` with token auth must exit 66 saying whose it is, and that server must receive nothing.
@Suite struct MockReadyFileTrustTests {
    static let device = String(repeating: "6d", count: 32)

    /// How the other user gets their `mock.json` in front of the victim.
    enum Plant: String, CaseIterable, Sendable {
        /// The state dir is theirs (APNSCTL_MOCK_STATE_DIR names a folder of theirs).
        case theirStateDir
        /// The victim's state dir, shared with them through its group (mode 2770); they write `mock.json`.
        case sharedStateDir
        /// Their file in the victim's own dir (left from when it was shared).
        case theirFileInOurDir
        /// A link they own in the victim's own dir, to a `mock.json` of theirs.
        case theirLinkInOurDir
    }

    @Test(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"), arguments: Plant.allCases)
    func anotherUsersMockJSONIsRefusedAndNoTokenIsSent(_ plant: Plant) throws {
        let attackerServer = try InProcessMock(keepingLog: true)
        let base = try TemporaryDirectory(prefix: "planted-mock-json")
        let other = try OtherUser.area(in: base)
        // Their mock.json: the endpoint and CA of their server, in a file they can copy from.
        let planted = try base.write(
            "planted.json",
            String(
                decoding: try Data(
                    contentsOf: URL(
                        fileURLWithPath:
                            attackerServer.stateDirectory.file("mock.json"))), as: UTF8.self))
        let key = try base.write("AuthKey_ABCDE12345.p8", CredentialFixtures.signingKey.p8PEM, mode: 0o600)

        let stateDir: String
        let problem: String
        switch plant {
        case .theirStateDir:
            stateDir = other + "/state"
            try OtherUser.run(["mkdir", "-m", "0755", stateDir])
            try OtherUser.run(["cp", planted, stateDir + "/mock.json"])
            problem = "a folder of user"
        case .sharedStateDir:
            stateDir = base.file("shared")
            try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: false)
            #expect(chown(stateDir, getuid(), OtherUser.uid) == 0)
            #expect(chmod(stateDir, 0o2770) == 0)
            try OtherUser.run(["cp", planted, stateDir + "/mock.json"])
            problem = "a folder writable by group (mode 02770)"
        case .theirFileInOurDir:
            stateDir = base.file("ours")
            try FileManager.default.createDirectory(
                atPath: stateDir, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: planted, toPath: stateDir + "/mock.json")
            #expect(chown(stateDir + "/mock.json", OtherUser.uid, OtherUser.uid) == 0)
            problem = "owned by user"
        case .theirLinkInOurDir:
            stateDir = base.file("ours")
            try FileManager.default.createDirectory(
                atPath: stateDir, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
            try OtherUser.run(["cp", planted, other + "/mock.json"])
            try FileManager.default.createSymbolicLink(
                atPath: stateDir + "/mock.json", withDestinationPath: other + "/mock.json")
            #expect(lchown(stateDir + "/mock.json", OtherUser.uid, OtherUser.uid) == 0)
            problem = "is a symbolic link owned by user"
        }

        let r = try InProcess.apnsctl(
            [
                "send", "-p", "mock", "--auth-key", key, "--team-id", "TEAM123456",
                "-d", Self.device, "--alert", "hi",
            ],
            environment: ["APNSCTL_MOCK_STATE_DIR": stateDir], timeout: 20)

        #expect(r.status == 66, "\(r.stdout)\(r.stderr)")
        #expect(r.errorLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: -p mock: \(stateDir)/mock.json: "), "\(r.stderr)")
        #expect(r.stderr.contains(problem), "\(r.stderr)")
        #expect(
            r.stderr.contains("(uid \(OtherUser.uid))") || plant == .sharedStateDir, "names whose it is: \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(
            try String(contentsOfFile: attackerServer.logFile, encoding: .utf8).isEmpty,
            "their server received a request")
    }

    /// A FIFO at `mock.json` is refused at once (66), never waited on.
    @Test func aFIFOAtMockJSONIsRefusedAtOnce() throws {
        let state = try TemporaryDirectory(prefix: "fifo-mock-json")
        #expect(mkfifo(state.file("mock.json"), 0o600) == 0)

        let r = try InProcess.apnsctl(
            ["config", "show", "mock"], environment: ["APNSCTL_MOCK_STATE_DIR": state.path], timeout: 20)

        #expect(!r.timedOut && r.seconds < 5, "waited on the FIFO (\(r.seconds) s)")
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1
                && r.stderr.hasPrefix("error: -p mock: \(state.file("mock.json")): is a FIFO, not a regular file"),
            "\(r.stderr)")
    }

    /// A folder at `mock.json`: the mock cannot write its file over it, so a restart alone fails the same way; the
    /// advice moves it aside first, and followed, the folder is no longer in the way.
    @Test func aFolderAtMockJSONIsToBeMovedAside() throws {
        let state = try TemporaryDirectory(prefix: "folder-mock-json")
        #expect(chmod(state.path, 0o700) == 0)
        let file = state.file("mock.json")
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        let r = try InProcess.apnsctl(["config", "show", "mock"], environment: ["APNSCTL_MOCK_STATE_DIR": state.path])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(
            r.errorLines == [
                "error: -p mock: \(file): is a directory, not a regular file; move it aside (mv \(file) \(file).old), then restart apnsctl mock, which writes it"
            ], "\(r.stderr)")
        #expect(rename(file, file + ".old") == 0)
        let after = try InProcess.apnsctl(
            ["config", "show", "mock"], environment: ["APNSCTL_MOCK_STATE_DIR": state.path])
        #expect(after.stderr.contains("start apnsctl mock first"), "\(after.stderr)")
    }

    /// A command that does not choose the mock profile never looks at `mock.json`: a FIFO there (which used to
    /// hang every command that reads settings) changes nothing.
    @Test func aFIFOAtMockJSONDoesNotConcernACommandWithoutTheMockProfile() throws {
        let mock = try InProcessMock()
        let state = try TemporaryDirectory(prefix: "fifo-mock-json")
        #expect(mkfifo(state.file("mock.json"), 0o600) == 0)
        let environment = ["APNSCTL_MOCK_STATE_DIR": state.path]

        let send = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                "--topic", mock.bundleID, "-d", Self.device, "--alert", "hi",
            ],
            environment: environment, timeout: 20)
        #expect(!send.timedOut && send.status == 0, "\(send.stderr)")
        #expect(send.stdout.hasPrefix("accepted"), "\(send.stdout)")
        #expect(send.stderr.isEmpty, "\(send.stderr)")

        let show = try InProcess.apnsctl(["config", "show"], environment: environment, timeout: 20)
        #expect(!show.timedOut && show.status == 0, "\(show.stderr)")
    }

    /// The mock's own flow still works: the user's mock writes `mock.json` in their state dir, and `-p mock`
    /// reaches it, also through a link of the user's own to that state dir's file.
    @Test func ourOwnMockJSONIsUsedDirectlyAndThroughOurOwnLink() throws {
        let mock = try InProcessMock()
        let direct = try InProcess.apnsctl(
            ["send", "-p", "mock", "-d", Self.device, "--alert", "hi"],
            environment: ["APNSCTL_MOCK_STATE_DIR": mock.stateDirectory.path], timeout: 20)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdout.hasPrefix("accepted"), "\(direct.stdout)")

        let elsewhere = try TemporaryDirectory(prefix: "linked-mock-json")
        try FileManager.default.createSymbolicLink(
            atPath: elsewhere.file("mock.json"),
            withDestinationPath: mock.stateDirectory.file("mock.json"))
        let linked = try InProcess.apnsctl(
            ["send", "-p", "mock", "-d", Self.device, "--alert", "hi"],
            environment: ["APNSCTL_MOCK_STATE_DIR": elsewhere.path], timeout: 20)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout.hasPrefix("accepted"), "\(linked.stdout)")
    }
}
