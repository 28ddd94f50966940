/// A payload as it would be sent. For a `.apns` file (Xcode's simulator format) the
/// `Simulator Target Bundle` key is not part of the payload: the body is the rest, written
/// compactly in its original key order, and the bundle id is kept as `send`'s default topic.
public struct Payload: Sendable {
    /// The key Xcode's simulator reads the app's bundle id from.
    public static let simulatorTargetBundleKey = "Simulator Target Bundle"

    /// The bytes to send: exactly as read, or the `.apns` file's payload written compactly. That one is written
    /// when asked for, not kept beside the file's bytes: a file of any size is checked in about its own size.
    public var body: [UInt8] {
        writesBodyWithoutBundle ? JSONCompactor.removing(Payload.simulatorTargetBundleKey, fromObject: source) : source
    }
    /// How many bytes `body` has.
    public let bodyCount: Int
    /// The bundle id from a `.apns` file, when it has a string `Simulator Target Bundle`: read whole from the
    /// file when the rules' reading kept only its start (`JSONValue.cutLength`), so `send` uses all of it.
    public var simulatorTargetBundle: String? {
        guard let (value, file) = targetBundle else { return nil }
        guard value.cutLength != nil else { return value.string }
        var parser = JSONParser(bytes: file)
        parser.index = value.start
        return try? parser.parseString()
    }
    /// The `Simulator Target Bundle` string as read, and the bytes it was read from.
    private let targetBundle: (value: JSONValue, file: [UInt8])?
    /// Whether the bytes came from a `.apns` file.
    public let isAPNSFile: Bool
    /// The bytes as read. Problems are reported at positions in these, so they match the user's file.
    public let source: [UInt8]
    /// A `.apns` file's bytes read as the rules read them (for its bundle id), for `ParsedPayload` to reuse.
    let document: PayloadDocument?
    /// Whether `body` is `source` without the bundle key, written compactly (a `.apns` file holding a JSON object).
    private let writesBodyWithoutBundle: Bool

    /// Whether `path` names a `.apns` file (case-insensitive extension, and a name before it).
    public static func isAPNSPath(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        return name.lowercased().hasSuffix(".apns") && name.utf8.count > 5
    }

    /// A payload from bytes (inline JSON, standard input); `isAPNSFile` applies the `.apns` processing.
    public init(bytes: [UInt8], isAPNSFile: Bool = false) {
        source = bytes
        self.isAPNSFile = isAPNSFile
        let document = isAPNSFile ? PayloadDocument(reading: bytes) : nil
        self.document = document
        guard let root = document?.root, root.isObject else {
            (writesBodyWithoutBundle, bodyCount, targetBundle) = (false, bytes.count, nil)
            return
        }
        targetBundle = root[Payload.simulatorTargetBundleKey].flatMap { $0.string == nil ? nil : ($0, bytes) }
        writesBodyWithoutBundle = true
        bodyCount = JSONCompactor.countRemoving(Payload.simulatorTargetBundleKey, fromObject: bytes)
    }

    /// A payload whose body `send`'s payload flags built from `original` (CLI.md, "Live Activities and widgets"):
    /// problems are reported in the built bytes, and a `.apns` file's bundle id stays the default topic.
    public init(built body: [UInt8], from original: Payload) {
        source = body
        bodyCount = body.count
        isAPNSFile = false
        targetBundle = original.targetBundle
        (document, writesBodyWithoutBundle) = (nil, false)
    }

    /// How many bytes `minified()` has, without writing them; nil when the body is not valid JSON.
    public func minifiedCount() -> Int? { compactCount(alreadyParsed: false) }

    /// `minifiedCount()`; `alreadyParsed` when the body was read and is JSON (no second check).
    func compactCount(alreadyParsed: Bool) -> Int? {
        if writesBodyWithoutBundle { return bodyCount }  // already compact
        return alreadyParsed ? JSONCompactor.compactCount(source[...]) : JSONCompactor.compactCount(ofValid: source)
    }

    /// The body without insignificant whitespace (what `--minify` sends), nil when not valid JSON.
    public func minified() -> [UInt8]? { writesBodyWithoutBundle ? body : JSONCompactor.minify(source) }
}
