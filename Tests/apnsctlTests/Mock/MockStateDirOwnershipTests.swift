import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// CLI.md, `apnsctl mock`: the state dir is ours or refused. Played as two users: another user
/// prepares the dir (owns it, shares it through a group, links it, plants `mock.lock`), the victim starts a
/// mock on it, which must exit 73 naming the problem with the `mktemp -d` advice, and touch nothing.
@Suite(.enabled(if: OtherUser.isAvailable, "needs root to act as a second user"))
struct MockStateDirOwnershipTests {
    enum Preparation: String, CaseIterable, Sendable {
        /// The other user's own dir (0755), with a `mock.lock` link to the victim's file planted in it.
        case ownedByOther
        /// The victim's dir, writable by a group the other user is in, who planted the link there.
        case groupWritable
        /// A link the other user made, pointing at a directory of the victim's.
        case symbolicLink
        /// The fixed name in a shared sticky folder (like `/tmp/apnsctl-mock`), created first by the other user.
        case takenInSharedFolder
    }

    /// The victim's precious file, which the planted links point at.
    static let precious = "precious, not a pid\n"

    @Test(arguments: Preparation.allCases)
    func aStateDirAnotherUserCanControlIsRefusedWith73(_ preparation: Preparation) throws {
        let base = try TemporaryDirectory(prefix: "two-users")
        let other = try OtherUser.area(in: base)
        let victimFile = try base.write("victim.txt", Self.precious)
        let victimDir = base.file("victim-dir")
        try FileManager.default.createDirectory(atPath: victimDir, withIntermediateDirectories: false)
        try base.write("victim-dir/keep.txt", "mine\n")

        let stateDir: String
        let problem: String
        switch preparation {
        case .ownedByOther:
            stateDir = other + "/state"
            try OtherUser.run(["mkdir", "-m", "0755", stateDir])
            try OtherUser.run(["ln", "-s", victimFile, stateDir + "/mock.lock"])
            try OtherUser.run(["ln", "-s", victimFile, stateDir + "/ca.pem"])
            problem = "belongs to user"
        case .groupWritable:
            stateDir = base.file("shared")
            try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: false)
            #expect(chown(stateDir, 0, OtherUser.uid) == 0)
            #expect(chmod(stateDir, 0o2770) == 0)
            try OtherUser.run(["ln", "-s", victimFile, stateDir + "/mock.lock"])
            problem = "is writable by its group"
        case .symbolicLink:
            stateDir = other + "/state"
            try OtherUser.run(["ln", "-s", victimDir, stateDir])
            problem = "is a symbolic link"
        case .takenInSharedFolder:
            let shared = base.file("tmp")
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
            #expect(chmod(shared, 0o1777) == 0)
            stateDir = shared + "/apnsctl-mock"
            try OtherUser.run(["mkdir", "-m", "0777", stateDir])
            try OtherUser.run(["ln", "-s", victimFile, stateDir + "/mock.lock"])
            problem = "belongs to user"
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: stateDir).sorted()

        let r = try InProcess.apnsctl(["mock", "--port", "0", "--state-dir", stateDir], timeout: 15)

        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.errorLines.count == 1, "one error line: \(r.stderr)")
        let line = r.errorLines.first ?? ""
        #expect(line.hasPrefix("error: --state-dir \(stateDir): \(problem)"), "\(line)")
        #expect(line.contains("mktemp -d"), "\(line)")
        #expect(try String(contentsOfFile: victimFile, encoding: .utf8) == Self.precious, "the linked file was written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victimDir) == ["keep.txt"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stateDir).sorted() == before, "nothing written there")
    }
}

/// The state dir rules that need no second user: our own dir is used (a missing one created 0700), and a link
/// planted in it is still never followed.
@Suite struct MockStateDirLinkTests {
    /// A `mock.lock` link in a dir of our own (planted while it was shared, say) is refused, not followed: the
    /// old `open(O_CREAT)` truncated the file it pointed to and wrote a pid into it. Needs no second user.
    @Test func aMockLockLinkInOurOwnDirIsNotFollowed() throws {
        let base = try TemporaryDirectory(prefix: "lock-link")
        let victimFile = try base.write("victim.txt", MockStateDirOwnershipTests.precious)
        let stateDir = base.file("state")
        try FileManager.default.createDirectory(
            atPath: stateDir, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: stateDir + "/mock.lock", withDestinationPath: victimFile)

        let r = try InProcess.apnsctl(["mock", "--port", "0", "--state-dir", stateDir], timeout: 15)

        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.errorLines.count == 1
                && r.stderr.hasPrefix("error: --state-dir \(stateDir)/mock.lock: is a symbolic link (not followed)"),
            "\(r.stderr)")
        #expect(
            try String(contentsOfFile: victimFile, encoding: .utf8) == MockStateDirOwnershipTests.precious,
            "the linked file was written")
    }

    /// The same checks from the other side: a dir of our own with a mode only we can write is used, and a
    /// missing one is created 0700 (so the refusals above are about the other user, not about any dir).
    @Test func aMissingStateDirIsCreated0700AndOursIsUsed() throws {
        let base = try TemporaryDirectory(prefix: "own-state")
        let mock = try RunningMock(stateDir: base.file("new/state"))
        #expect(OtherUser.ownerAndMode(base.file("new/state"))?.mode == 0o700)
        #expect(OtherUser.ownerAndMode(base.file("new/state"))?.uid == getuid())
        #expect(!mock.endpoint.isEmpty)
    }
}
