import APNSCore
import APNSCrypto
import APNSPlatform

/// Why the state dir could not be prepared; the CLI maps `.files`, `.notADirectory` and `.inUse` to 73
/// (cannot create, in use) and `.credentials` to 77. The facts only: the CLI names its flag and says what to do.
public enum MockStateError: Error, Sendable, CustomStringConvertible {
    case files(FileSystem.Failure)
    case credentials(String)
    /// Another mock holds the state dir's lock (`pid` when it could be read).
    case inUse(directory: String, pid: Int32?)
    /// The state dir's path names a file, not a directory.
    case notADirectory(String)
    /// The state dir, or a file in it, is not ours alone (a link, another user's, writable by others): refused
    /// untouched, since whoever controls it could hand the mock their keys or redirect its writes.
    case untrusted(path: String, reason: String)

    /// A `PrivateDirectory` failure as a state dir problem.
    init(_ failure: PrivateDirectory.Failure) {
        switch failure {
        case .file(let f): self = .files(f)
        case .untrusted(let path, let reason, _): self = .untrusted(path: path, reason: reason)
        }
    }

    public var description: String {
        switch self {
        case .files(let f): return f.message
        case .credentials(let m): return m
        case .inUse(let directory, let pid):
            let holder = pid.map { "apnsctl mock (pid \($0))" } ?? "another apnsctl mock"
            return "\(directory): state dir in use by \(holder); stop that mock"
        case .notADirectory(let path): return "\(path): it is a file; the state dir must be a directory"
        case .untrusted(let path, let reason): return "\(path): \(reason)"
        }
    }
}

/// The mock's demo credentials in its state dir, created on first start and reused afterwards so that
/// users configure `ca.pem`, `client.pem` and the `.p8` once:
///
/// | file | holds | mode |
/// |---|---|---|
/// | `ca.pem` | the CA that signs the server and client certificates | 0644 |
/// | `server.pem`, `server-key.pem` | TLS certificate for `localhost`, `127.0.0.1`, `::1`, and its key | 0644, 0600 |
/// | `client.pem` | universal push certificate for `com.example.demo` (+ `.voip`, `.complication`) and its key | 0600 |
/// | `AuthKey_<KEYID>.p8` | provider-token signing key | 0600 |
/// | `demo.json` | `key_id`, `team_id`, `bundle_id`, so they stay the same | 0644 |
/// | `mock.lock` | the pid of the mock that holds the dir (`flock`ed for the mock's life) | 0644 |
/// | `mock.stopped` | a detached mock's last error, for `mock stop` (`MockStopReport`) | 0600 |
///
/// The dir must be ours alone (`PrivateDirectory`): a link, another user's dir or one that others can write
/// is refused, and every file in it is reached without following links.
///
/// First-time creation is atomic: the set is written to a temporary directory beside the state dir and renamed
/// into place, so mocks started at the same instant on one empty dir end with one consistent set (the loser
/// of the rename uses the winner's).
public struct MockState: Sendable {
    public static let bundleID = "com.example.demo"
    public static let topics = [bundleID, bundleID + ".voip", bundleID + ".complication"]

    /// The state dir, opened and checked once; every file of the state is read and written through it.
    public let storage: PrivateDirectory
    public var directory: String { storage.path }
    public let keyID: String
    public let teamID: String
    public let serverIdentity: MockServerIdentity
    /// The `.p8` key (tests sign tokens with it).
    public let signingKey: SigningKey
    /// True when this call generated the files (first start, or the old ones were unusable).
    public let created: Bool
    /// Why the files there were replaced (`client.pem expired on …`), said at start: the CA, the key and the team id
    /// change with them. Nil on a first start and when they were reused.
    public private(set) var replacedBecause: String? = nil

    public var caFile: String { storage.file(FileName.ca) }
    public var clientFile: String { storage.file(FileName.client) }
    public var authKeyFile: String { storage.file(FileName.authKey(keyID)) }

    /// The names of the state dir's files, spelled once for reading, writing and showing them.
    enum FileName {
        static let ca = "ca.pem"
        static let server = "server.pem"
        static let serverKey = "server-key.pem"
        static let client = "client.pem"
        static let demo = "demo.json"
        static func authKey(_ keyID: String) -> String { "AuthKey_\(keyID).p8" }
    }

    /// A verifier for bearer tokens signed by the state dir's key.
    public func tokenVerifier() throws(MockStateError) -> ProviderTokenVerifier {
        do {
            return ProviderTokenVerifier(publicKey: try signingKey.publicKey, keyID: keyID, teamID: teamID)
        } catch {
            throw .credentials("\(authKeyFile): cannot read the public key: \(error)")
        }
    }

    /// Loads the state in `directory`, or creates it (directories 0700) when it is missing, incomplete,
    /// unreadable or its server certificate has expired, holding the state dir's lock: whoever else may start a
    /// mock shares the dir. Keep the lock as long as the mock runs; another mock on the dir gets `.inUse`.
    public static func prepareExclusively(directory: String, now: Int64 = SystemClock.now())
        throws(MockStateError) -> (state: MockState, lock: FileLock)
    {
        let created = try createIfAbsent(directory: directory)
        let storage = try openStorage(directory)
        let lock: FileLock
        switch FileLock.acquire(lockName, in: storage) {
        case .acquired(let l): lock = l
        case .held(let pid): throw .inUse(directory: directory, pid: pid)
        case .failed(let failure): throw MockStateError(failure)
        }
        return (try loadOrRepair(storage: storage, now: now, created: created), lock)
    }

    public static let lockName = "mock.lock"

    /// The state dir, refused unless it is ours alone.
    private static func openStorage(_ directory: String) throws(MockStateError) -> PrivateDirectory {
        do { return try PrivateDirectory.open(directory) } catch { throw MockStateError(error) }
    }

    /// The state in `storage`, regenerated in place when it is incomplete, unreadable or expired; the old signing
    /// key is removed with it, so `AuthKey_*.p8` names one file again.
    private static func loadOrRepair(storage: PrivateDirectory, now: Int64, created: Bool) throws(MockStateError)
        -> MockState
    {
        let reason: String
        switch check(storage: storage, now: now, created: created) {
        case .usable(let existing): return existing
        case .unusable(let why): reason = why
        }
        let oldKeyID = (try? JSONReader.parse(storage.read(FileName.demo)))?["key_id"]?.string
        let hadSet = [FileName.demo, FileName.ca, FileName.server, FileName.serverKey, FileName.client].contains {
            storage.contains($0)
        }
        let fresh = try generate()
        try write(fresh.files, into: storage)
        // The old set's signing key goes with it, so `AuthKey_*.p8` names one file again; only the one its demo.json
        // named: any other key in the dir may be the user's own (an Apple .p8 downloads once), never removed.
        if let oldKeyID, oldKeyID != fresh.keyID, DeveloperID.isWellFormed(oldKeyID) {
            storage.remove(FileName.authKey(oldKeyID))
        }
        var state = fresh.state(storage: storage)
        // A dir with no file of the set in it (new, or holding only the log a --detach start made) was only being
        // created: no replacement to explain.
        if hadSet { state.replacedBecause = reason }
        return state
    }

    /// Creates the whole set when `directory` is missing or empty: generated in a temporary directory beside it,
    /// then renamed into place in one step. Returns whether this call's set is the one in place (a mock that
    /// lost the race to another uses the winner's set, and returns false).
    static func createIfAbsent(directory: String) throws(MockStateError) -> Bool {
        switch FileSystem.entryKind(directory) {
        case .none: break
        case .directory, .symbolicLink:
            // Checked before anything in it is looked at: a link or someone else's dir is refused here.
            if !(try openStorage(directory).isEmpty) { return false }
        case .other: throw .notADirectory(directory)
        }
        let parentPath = PrivateDirectory.parentPath(of: directory)
        do {
            try FileSystem.makeDirectories(parentPath, mode: 0o700)
            // Made by a rename below, not by makeDirectories: checked here.
            try FileSystem.refuseRootCreating(directory, inside: parentPath)
        } catch {
            throw .files(error)
        }
        let fresh = try generate()
        let template = "\(parentPath)/.\(FileSystem.baseName(directory)).new-XXXXXX"
        guard let temporaryPath = FileSystem.makeUniqueDirectory(template: template) else {
            // No room beside it (e.g. a read-only parent): create in place instead.
            do { try FileSystem.makeDirectory(directory, mode: 0o700) } catch { throw .files(error) }
            return false
        }
        let temporary = try openStorage(temporaryPath)
        do { try write(fresh.files, into: temporary) } catch {
            removeFiles(fresh.files.map(\.name), from: temporary)
            throw error
        }
        // rename(2) replaces a missing or empty directory atomically and refuses a non-empty one.
        let renamed = FileSystem.renameDirectory(temporaryPath, to: directory)
        if renamed == .renamed { return true }
        // Lost the race: the descriptor still names the temporary dir, which is not the state dir.
        removeFiles(fresh.files.map(\.name), from: temporary)
        if renamed == .failed {
            do { try FileSystem.makeDirectory(directory, mode: 0o700) } catch { throw .files(error) }
        }
        return false
    }

    /// Removes `names` and then the directory itself (a temporary one that lost the rename race or failed).
    private static func removeFiles(_ names: [String], from directory: PrivateDirectory) {
        for name in names { directory.remove(name) }
        FileSystem.removeEmptyDirectory(directory.path)
    }

    /// The existing state, or why it cannot be used.
    enum Check {
        case usable(MockState)
        case unusable(String)
    }

    /// The existing state, or nil when any part is missing or unusable.
    static func load(storage: PrivateDirectory, now: Int64, created: Bool = false) -> MockState? {
        if case .usable(let state) = check(storage: storage, now: now, created: created) { return state }
        return nil
    }

    /// The existing state, or the first reason it cannot be used: a file missing or unreadable, or a certificate
    /// expired (the client certificate lives a shorter time than the server's, and a dir reused for a year
    /// outlives it).
    static func check(storage: PrivateDirectory, now: Int64, created: Bool = false) -> Check {
        guard let demo = try? JSONReader.parse(storage.read(FileName.demo)),
            let keyID = demo["key_id"]?.string, let teamID = demo["team_id"]?.string,
            DeveloperID.isWellFormed(keyID), DeveloperID.isWellFormed(teamID)
        else { return .unusable("\(FileName.demo) is missing or unreadable") }
        guard let ca = try? X509Certificate.all(pem: storage.read(FileName.ca)).first,
            let server = try? X509Certificate.all(pem: storage.read(FileName.server)).first,
            let serverKey = try? PrivateKey(pem: storage.read(FileName.serverKey), passphrase: nil),
            serverKey.matches(server),
            let client = try? X509Certificate.all(pem: storage.read(FileName.client)).first,
            let keyBytes = try? storage.read(FileName.authKey(keyID)),
            let signingKey = try? CredentialLoader.loadSigningKey(
                bytes: keyBytes, path: storage.file(FileName.authKey(keyID)))
        else {
            let missing = [FileName.ca, FileName.server, FileName.serverKey, FileName.client, FileName.authKey(keyID)]
                .first { !storage.contains($0) }
            return .unusable(missing.map { "\($0) is missing" } ?? "a file of the set is unreadable or does not match")
        }
        for (name, certificate) in [(FileName.ca, ca), (FileName.server, server), (FileName.client, client)] {
            if certificate.info.isExpired(now: now) {
                return .unusable("\(name) expired on \(ISO8601.format(epochSeconds: certificate.info.notAfter))")
            }
            // Made by a clock ahead of this one (or this one is behind): clients would refuse it until then.
            if certificate.info.isNotYetValid(now: now) {
                return .unusable(
                    "\(name) is not valid before \(ISO8601.format(epochSeconds: certificate.info.notBefore)); is this clock behind?"
                )
            }
        }
        return .usable(
            MockState(
                storage: storage, keyID: keyID, teamID: teamID,
                serverIdentity: MockServerIdentity(certificate: server, key: serverKey, clientCA: ca),
                signingKey: signingKey, created: created))
    }

    /// A generated set: the files to write and what `MockState` needs from them.
    struct Generated {
        let keyID: String
        let teamID: String
        let ca: PushIdentity
        let server: PushIdentity
        let signingKey: SigningKey
        let files: [(name: String, bytes: [UInt8], mode: FileMode)]

        func state(storage: PrivateDirectory) -> MockState {
            MockState(
                storage: storage, keyID: keyID, teamID: teamID,
                serverIdentity: MockServerIdentity(
                    certificate: server.certificate, key: server.privateKey,
                    clientCA: ca.certificate),
                signingKey: signingKey, created: true)
        }
    }

    /// Generates fresh credentials (nothing written yet).
    static func generate() throws(MockStateError) -> Generated {
        let keyID = CredentialGenerator.makeIdentifier()
        let teamID = CredentialGenerator.makeIdentifier()
        let ca: PushIdentity
        let server: PushIdentity
        let client: PushIdentity
        let signingKey: SigningKey
        var files: [(name: String, bytes: [UInt8], mode: FileMode)] = []
        do {
            ca = try CredentialGenerator.makeCA(commonName: "apnsctl mock CA")
            server = try CredentialGenerator.makeServerCertificate(
                ca: ca, dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])
            client = try CredentialGenerator.makePushCertificate(
                ca: ca, bundleID: bundleID, kind: .universal(topics: topics),
                teamID: teamID)
            signingKey = try CredentialGenerator.makeSigningKey()
            files.append((FileName.ca, ca.certificate.pem, 0o644))
            files.append((FileName.server, server.certificate.pem, 0o644))
            files.append((FileName.serverKey, try server.privateKey.pkcs8PEM(passphrase: nil), 0o600))
            files.append((FileName.client, try client.pem(), 0o600))
            files.append((FileName.authKey(keyID), try signingKey.p8PEM, 0o600))
        } catch {
            throw .credentials("cannot generate the mock's credentials: \(error)")
        }
        var demo = JSONWriter()
        demo.beginObject()
        demo.field("key_id", keyID)
        demo.field("team_id", teamID)
        demo.field("bundle_id", bundleID)
        demo.endObject()
        // demo.json last: `load` needs it first, so a set cut short is never taken for a whole one.
        files.append((FileName.demo, demo.bytes + [0x0A], 0o644))
        return Generated(keyID: keyID, teamID: teamID, ca: ca, server: server, signingKey: signingKey, files: files)
    }

    /// Writes `files` into `directory`, each through a temporary file and a rename.
    private static func write(
        _ files: [(name: String, bytes: [UInt8], mode: FileMode)], into directory: PrivateDirectory
    )
        throws(MockStateError)
    {
        for file in files {
            do { try directory.write(file.bytes, to: file.name, mode: file.mode, overwrite: true) } catch {
                throw MockStateError(error)
            }
        }
    }
}
