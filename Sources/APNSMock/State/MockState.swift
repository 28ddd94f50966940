import APNSCore
import APNSCrypto

/// Why the state dir could not be prepared; the CLI maps `.files` to 73 (cannot create) and the rest to 77.
public enum MockStateError: Error, Sendable, CustomStringConvertible {
    case files(FileSystem.Failure)
    case credentials(String)

    public var description: String {
        switch self {
        case .files(let f): return f.message
        case .credentials(let m): return m
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
public struct MockState: Sendable {
    public static let bundleID = "com.example.demo"
    public static let topics = [bundleID, bundleID + ".voip", bundleID + ".complication"]

    public let directory: String
    public let keyID: String
    public let teamID: String
    public let serverIdentity: MockServerIdentity
    /// The `.p8` key (tests sign tokens with it).
    public let signingKey: SigningKey
    /// True when this call generated the files (first start, or the old ones were unusable).
    public let created: Bool

    public var caFile: String { directory + "/ca.pem" }
    public var serverCertificateFile: String { directory + "/server.pem" }
    public var serverKeyFile: String { directory + "/server-key.pem" }
    public var clientFile: String { directory + "/client.pem" }
    public var authKeyFile: String { directory + "/AuthKey_\(keyID).p8" }
    public var demoFile: String { directory + "/demo.json" }
    public var readyFile: String { directory + "/mock.json" }

    /// `$XDG_STATE_HOME/apnsctl/mock`, else `~/.local/state/apnsctl/mock`.
    public static var defaultDirectory: String { Environment.stateHome + "/apnsctl/mock" }

    /// A verifier for bearer tokens signed by the state dir's key.
    public func tokenVerifier() throws(MockStateError) -> ProviderTokenVerifier {
        do {
            return ProviderTokenVerifier(publicKey: try signingKey.publicKey, keyID: keyID, teamID: teamID)
        } catch {
            throw .credentials("\(authKeyFile): cannot read the public key: \(error)")
        }
    }

    /// Loads the state in `directory`, or creates it (directories 0700) when it is missing, incomplete,
    /// unreadable or its server certificate has expired.
    public static func prepare(directory: String, now: Int64 = SystemClock.now()) throws(MockStateError) -> MockState {
        do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch { throw .files(error) }
        if let existing = load(directory: directory, now: now) { return existing }
        return try create(directory: directory)
    }

    /// The existing state, or nil when any part is missing or unusable.
    static func load(directory: String, now: Int64) -> MockState? {
        guard let demo = try? JSONReader.parse(FileSystem.read(directory + "/demo.json")),
              let keyID = demo["key_id"]?.string, let teamID = demo["team_id"]?.string,
              ProviderToken.isWellFormedID(keyID), ProviderToken.isWellFormedID(teamID),
              let ca = try? X509Certificate.all(pem: FileSystem.read(directory + "/ca.pem")).first,
              let server = try? X509Certificate.all(pem: FileSystem.read(directory + "/server.pem")).first,
              let serverKey = try? PrivateKey(pem: FileSystem.read(directory + "/server-key.pem"), passphrase: nil),
              serverKey.matches(server), !server.info.isExpired(now: now),
              FileSystem.exists(directory + "/client.pem"),
              let signingKey = try? CredentialLoader.loadSigningKey(path: directory + "/AuthKey_\(keyID).p8")
        else { return nil }
        return MockState(directory: directory, keyID: keyID, teamID: teamID,
                         serverIdentity: MockServerIdentity(certificate: server, key: serverKey, clientCA: ca),
                         signingKey: signingKey, created: false)
    }

    /// Generates fresh credentials and writes them.
    static func create(directory: String) throws(MockStateError) -> MockState {
        let keyID = CredentialGenerator.makeIdentifier()
        let teamID = CredentialGenerator.makeIdentifier()
        let ca: PushIdentity, server: PushIdentity, client: PushIdentity, signingKey: SigningKey
        var files: [(name: String, bytes: [UInt8], mode: mode_t)] = []
        do {
            ca = try CredentialGenerator.makeCA(commonName: "apnsctl mock CA")
            server = try CredentialGenerator.makeServerCertificate(ca: ca, dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])
            client = try CredentialGenerator.makePushCertificate(ca: ca, bundleID: bundleID, kind: .universal(topics: topics),
                                                                 teamID: teamID)
            signingKey = try CredentialGenerator.makeSigningKey()
            files.append(("ca.pem", ca.certificate.pem, 0o644))
            files.append(("server.pem", server.certificate.pem, 0o644))
            files.append(("server-key.pem", try server.privateKey.pkcs8PEM(passphrase: nil), 0o600))
            files.append(("client.pem", try client.pem(), 0o600))
            files.append(("AuthKey_\(keyID).p8", try signingKey.p8PEM, 0o600))
        } catch {
            throw .credentials("cannot generate the mock's credentials: \(error)")
        }
        var demo = JSONWriter()
        demo.beginObject()
        demo.field("key_id", keyID)
        demo.field("team_id", teamID)
        demo.field("bundle_id", bundleID)
        demo.endObject()
        files.append(("demo.json", demo.bytes + [0x0A], 0o644))
        for file in files {
            do { try FileSystem.write(file.bytes, to: directory + "/" + file.name, mode: file.mode, overwrite: true) } catch {
                throw .files(error)
            }
        }
        return MockState(directory: directory, keyID: keyID, teamID: teamID,
                         serverIdentity: MockServerIdentity(certificate: server.certificate, key: server.privateKey,
                                                            clientCA: ca.certificate),
                         signingKey: signingKey, created: true)
    }
}
