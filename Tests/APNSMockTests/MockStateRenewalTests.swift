import APNSCore
import APNSMock
import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// The state dir's credentials are reused until one of them expires, the client certificate first (it lives 365
/// days, the server's 825): then the whole set is made again, why is said, and the old signing key goes with it.
@Suite struct MockStateRenewalTests {
    static let day: Int64 = 86_400

    /// The set in `path` prepared again once the lock of the last preparation is free: its descriptor, closed
    /// here, lives on in a child another test was spawning at that moment until the child execs.
    private func prepareAgain(_ path: String, now: Int64 = SystemClock.now()) throws -> (MockState, FileLock) {
        let directory = try PrivateDirectory.open(path)
        #expect(FileLock.waitUntilFree(MockState.lockName, in: directory, seconds: 30))
        return try MockState.prepareExclusively(directory: path, now: now)
    }

    @Test func anExpiredClientCertificateRenewsTheSetAndSaysWhy() throws {
        let directory = try TemporaryDirectory(prefix: "mock-renew")
        let path = directory.file("state")
        let now = SystemClock.now()
        let first: MockState
        do {
            let (state, lock) = try MockState.prepareExclusively(directory: path, now: now)
            first = state
            withExtendedLifetime(lock) {}
        }
        #expect(first.created && first.replacedBecause == nil)
        let reused: MockState
        do {
            let (state, lock) = try prepareAgain(path, now: now + 300 * Self.day)
            reused = state
            withExtendedLifetime(lock) {}
        }
        #expect(!reused.created && reused.keyID == first.keyID, "reused while every certificate is valid")
        let (renewed, lock) = try prepareAgain(path, now: now + 400 * Self.day)
        withExtendedLifetime(lock) {}
        #expect(renewed.created)
        #expect(
            renewed.replacedBecause?.hasPrefix("client.pem expired on ") == true, "\(renewed.replacedBecause ?? "")")
        #expect(renewed.keyID != first.keyID)
        let keys = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix("AuthKey_") }
        #expect(keys == ["AuthKey_\(renewed.keyID).p8"], "the old key is gone: AuthKey_*.p8 names one file")
    }

    /// A set whose demo.json was lost names no old key: the set is renewed and the missing file named, and no other
    /// `AuthKey_*.p8` in the dir is removed (it may be the user's own; an Apple .p8 downloads once).
    @Test func aLostDemoFileRenewsAndRemovesNoKeyItCannotName() throws {
        let directory = try TemporaryDirectory(prefix: "mock-lost-demo")
        let path = directory.file("state")
        let first: MockState
        do {
            let (state, lock) = try MockState.prepareExclusively(directory: path)
            first = state
            withExtendedLifetime(lock) {}
        }
        try FileManager.default.removeItem(atPath: path + "/demo.json")
        _ = try directory.write("state/AuthKey_USERKEY123.p8", "the user's own key", mode: 0o600)
        let (renewed, lock) = try prepareAgain(path)
        withExtendedLifetime(lock) {}
        #expect(renewed.replacedBecause == "demo.json is missing or unreadable")
        #expect(renewed.keyID != first.keyID)
        let keys = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix("AuthKey_") }
            .sorted()
        #expect(keys == ["AuthKey_\(first.keyID).p8", "AuthKey_USERKEY123.p8", "AuthKey_\(renewed.keyID).p8"].sorted())
    }

    /// A set made by a clock ahead of this one is renewed too: clients would refuse its certificates until then.
    @Test func aSetNotYetValidIsRenewed() throws {
        let directory = try TemporaryDirectory(prefix: "mock-future")
        let path = directory.file("state")
        do {
            let (_, lock) = try MockState.prepareExclusively(directory: path)
            withExtendedLifetime(lock) {}
        }
        let (renewed, lock) = try prepareAgain(path, now: SystemClock.now() - 2 * Self.day)
        withExtendedLifetime(lock) {}
        #expect(renewed.replacedBecause?.contains("is not valid before") == true, "\(renewed.replacedBecause ?? "")")
    }

    /// A dir holding only the log a `--detach` start made first is being created, not renewed: nothing to explain.
    @Test func aDirHoldingOnlyALogIsCreatedNotRenewed() throws {
        let directory = try TemporaryDirectory(prefix: "mock-log-only")
        let path = directory.file("state")
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        _ = try directory.write("state/mock.log", "", mode: 0o600)
        let (state, lock) = try MockState.prepareExclusively(directory: path)
        withExtendedLifetime(lock) {}
        #expect(state.created)
        #expect(state.replacedBecause == nil, "\(state.replacedBecause ?? "")")
    }
}
