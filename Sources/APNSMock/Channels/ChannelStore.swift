import APNSCore
import APNSCrypto
import APNSPlatform

/// The mock's broadcast channels, shared by every event loop and kept in `channels.json` in the state dir
/// (written to a temporary file and renamed, so a crash never leaves half a file), so channels survive a
/// restart as Apple's do. Channels belong to one app and one environment and never cross environments.
/// Plain `Sendable`: its mutable state lives in `LockedValue`s, so the compiler checks the locking.
final class ChannelStore: Sendable {
    /// One channel as stored.
    struct Channel: Equatable, Sendable {
        var id: String
        var bundleID: String
        var environment: APNSEnvironment
        var storage: ChannelStorage
    }

    private let channels: LockedValue<[Channel]>
    /// Serialises writes of `channels.json` (held around a snapshot and its write); the value says whether a
    /// failed write has been reported already.
    private let saving = LockedValue(false)
    /// The state dir `channels.json` is kept in; nil: memory only.
    private let directory: PrivateDirectory?
    private let warnings: Int32
    /// Channels per app and environment before `CannotCreateChannelConfig`.
    let limit: Int

    /// A store persisted in `channels.json` in `directory` (nil: memory only), loaded now. A file that cannot be
    /// read as channels starts the store empty, with a warning: a mock must start even when a test left junk there.
    /// `warnings`: where its warnings go (stderr in the binary).
    init(directory: PrivateDirectory?, limit: Int = Broadcast.maximumChannels, warnings: Int32 = 2) {
        self.directory = directory
        self.limit = limit
        self.warnings = warnings
        channels = LockedValue(Self.load(directory, warnings: warnings))
    }

    static let fileName = "channels.json"

    /// The channels kept in `directory`; none when there is no file or it holds no channel list (with a
    /// warning). Read as every state file is (`PrivateDirectory`): a FIFO, a link or another user's file there
    /// is skipped at once, never waited on.
    private static func load(_ directory: PrivateDirectory?, warnings: Int32) -> [Channel] {
        guard let directory else { return [] }
        let problem: String
        do {
            if let loaded = decode(try directory.read(fileName)) { return loaded }
            problem = "\(directory.file(fileName)): not a channel list"
        } catch {
            if case .file(.missing) = error { return [] }
            problem = error.message
        }
        MockServer.warnWithoutBlocking(
            "apnsctl mock: \(problem); starting with no channels (the file is replaced at the next create or delete)",
            to: warnings)
        return []
    }

    /// Creates a channel; nil when the app already has `limit` channels in `environment`.
    func create(bundleID: String, environment: APNSEnvironment, storage: ChannelStorage) -> String? {
        let made: String? = channels.withLock { channels in
            guard channels.lazy.filter({ $0.bundleID == bundleID && $0.environment == environment }).count < limit
            else { return nil }
            var id = Self.freshID()
            while channels.contains(where: { $0.id == id }) { id = Self.freshID() }
            channels.append(Channel(id: id, bundleID: bundleID, environment: environment, storage: storage))
            return id
        }
        if made != nil { save() }
        return made
    }

    /// The channel's policy, nil when no such channel exists for this app in this environment.
    func storage(of id: String, bundleID: String, environment: APNSEnvironment) -> ChannelStorage? {
        channels.withLock {
            $0.first { $0.id == id && $0.bundleID == bundleID && $0.environment == environment }?.storage
        }
    }

    /// Deletes a channel; false when there was none.
    func delete(_ id: String, bundleID: String, environment: APNSEnvironment) -> Bool {
        let removed = channels.withLock { channels -> Bool in
            let before = channels.count
            channels.removeAll { $0.id == id && $0.bundleID == bundleID && $0.environment == environment }
            return channels.count != before
        }
        if removed { save() }
        return removed
    }

    /// The app's channel ids in `environment`, oldest first.
    func list(bundleID: String, environment: APNSEnvironment) -> [String] {
        channels.withLock { $0.filter { $0.bundleID == bundleID && $0.environment == environment }.map(\.id) }
    }

    /// Writes `channels.json` (temporary file + rename, by `PrivateDirectory.write`, so a link or FIFO there is
    /// replaced, never written through). A failure is a warning, once: the channels still work until the mock stops.
    private func save() {
        guard let directory else { return }
        // One save at a time, each writing the state as it is when it starts: two event loops saving at once
        // must not let an older snapshot land last.
        saving.withLock { warnedAboutWriting in
            let bytes = channels.withLock { Self.encode($0) }
            do { try directory.write(bytes, to: Self.fileName, mode: 0o644, overwrite: true) } catch {
                if !warnedAboutWriting {
                    warnedAboutWriting = true
                    MockServer.warnWithoutBlocking(
                        "apnsctl mock: cannot save channels: \((error as? PrivateDirectory.Failure)?.message ?? "\(error)"); they last until the mock stops",
                        to: warnings)
                }
            }
        }
    }

    /// `{"channels":[{"id":…,"bundle_id":…,"environment":…,"message-storage-policy":n},…]}`.
    static func encode(_ channels: [Channel]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("channels")
        w.beginArray()
        for c in channels {
            w.beginObject()
            w.field("id", c.id)
            w.field("bundle_id", c.bundleID)
            w.field("environment", c.environment.rawValue)
            w.field(Broadcast.storagePolicyField, c.storage.rawValue)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }

    /// The channels in `bytes`, nil when they are not a channel list; entries that make no sense are skipped.
    static func decode(_ bytes: [UInt8]) -> [Channel]? {
        guard let root = try? JSONReader.parse(bytes), let list = root["channels"]?.elements else { return nil }
        return list.compactMap { e in
            guard let id = e["id"]?.string, Broadcast.isChannelIDSyntax(id), let bundle = e["bundle_id"]?.string,
                let env = e["environment"]?.string.flatMap(APNSEnvironment.init(rawValue:)),
                let raw = e[Broadcast.storagePolicyField]?.number?.intValue, let storage = ChannelStorage(rawValue: raw)
            else { return nil }
            return Channel(id: id, bundleID: bundle, environment: env, storage: storage)
        }
    }

    /// 16 random bytes in standard base64 with padding, the shape of Apple's channel ids.
    static func freshID() -> String {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let url = Base64URL.encode(bytes)
        return String(url.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }) + "=="
    }
}
