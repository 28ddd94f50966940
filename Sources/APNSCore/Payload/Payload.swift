/// A payload as it would be sent. For a `.apns` file (Xcode's simulator format) the
/// `Simulator Target Bundle` key is not part of the payload: the body is the rest, written
/// compactly in its original key order, and the bundle id is kept as `send`'s default topic.
public struct Payload: Sendable {
    /// The key Xcode's simulator reads the app's bundle id from.
    public static let simulatorTargetBundleKey = "Simulator Target Bundle"

    /// The bytes to send: exactly as read, or the `.apns` file's payload written compactly.
    public let body: [UInt8]
    /// The bundle id from a `.apns` file, when it has a string `Simulator Target Bundle`.
    public let simulatorTargetBundle: String?
    /// Whether the bytes came from a `.apns` file.
    public let isAPNSFile: Bool
    /// The bytes as read. Problems are reported at positions in these, so they match the user's file.
    public let source: [UInt8]

    /// Whether `path` names a `.apns` file (case-insensitive extension, and a name before it).
    public static func isAPNSPath(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        return name.lowercased().hasSuffix(".apns") && name.utf8.count > 5
    }

    /// A payload from bytes (inline JSON, standard input); `isAPNSFile` applies the `.apns` processing.
    public init(bytes: [UInt8], isAPNSFile: Bool = false) {
        source = bytes
        self.isAPNSFile = isAPNSFile
        guard isAPNSFile, let root = try? JSONReader.parse(bytes), let members = root.members else {
            body = bytes
            simulatorTargetBundle = nil
            return
        }
        simulatorTargetBundle = root[Payload.simulatorTargetBundleKey]?.string
        body = JSONCompactor.removing(Payload.simulatorTargetBundleKey, from: members, in: bytes)
    }

    /// A payload whose body `send`'s payload flags built from `original` (CLI.md, "Live Activities and widgets"):
    /// problems are reported in the built bytes, and a `.apns` file's bundle id stays the default topic.
    public init(built body: [UInt8], from original: Payload) {
        self.body = body
        source = body
        isAPNSFile = false
        simulatorTargetBundle = original.simulatorTargetBundle
    }

    /// The body without insignificant whitespace (what `--minify` sends), nil when not valid JSON.
    public func minified() -> [UInt8]? { JSONCompactor.minify(body) }
}
