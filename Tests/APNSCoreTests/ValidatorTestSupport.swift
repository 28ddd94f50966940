import APNSPlatform

@testable import APNSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Validates inline JSON text (or a `.apns` document) with options; the shape every rule test uses.
func check(_ json: String, _ options: ValidationOptions = ValidationOptions(), apns: Bool = false) -> ValidationReport {
    PayloadValidator.validate(Payload(bytes: Array(json.utf8), isAPNSFile: apns), options: options)
}

/// Shorthand for options with only a push type.
func type(_ pushType: PushType) -> ValidationOptions { ValidationOptions(pushType: pushType) }

extension ValidationReport {
    /// Problems at `path`.
    func at(_ path: String) -> [ValidationProblem] { problems.filter { $0.path == path } }

    /// Whether an error at `path` mentions `text`.
    func hasError(_ path: String, _ text: String) -> Bool {
        at(path).contains { $0.severity == .error && $0.message.contains(text) }
    }

    /// Whether a warning at `path` mentions `text`.
    func hasWarning(_ path: String, _ text: String) -> Bool {
        at(path).contains { $0.severity == .warning && $0.message.contains(text) }
    }

    /// Every problem as `line:column severity path: message`, for failure output.
    var listing: String {
        problems.map { "\($0.line):\($0.column) \($0.severity.rawValue) \($0.path): \($0.message)" }.joined(
            separator: "\n")
    }
}

extension Payload {
    /// The file at `path`, read as `apnsctl` reads it (APNSCore itself reads no files).
    static func load(path: String) throws(FileSystem.Failure) -> Payload {
        Payload(bytes: try FileSystem.read(path), isAPNSFile: isAPNSPath(path))
    }
}
