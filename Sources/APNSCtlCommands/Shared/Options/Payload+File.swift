import APNSCore
import APNSPlatform

extension Payload {
    /// Reads a payload file, or standard input (descriptor `standardInput`) for `-`; a `.apns` extension selects
    /// the simulator format.
    /// A `.apns` file that is not valid JSON still loads; the validator reports its syntax error. (Here,
    /// not in APNSCore: the core reads no files.)
    /// `interrupt`: see `FileSystem.read`.
    static func load(path: String, standardInput: Int32, interrupt: () -> Int32? = { nil }) throws(FileSystem.Failure)
        -> Payload
    {
        let bytes = try FileSystem.read(path, standardInput: standardInput, interrupt: interrupt)
        return Payload(bytes: bytes, isAPNSFile: isAPNSPath(path))
    }

    /// What to say of a file refused for its size (`FileSystem.Failure.isOverReadLimit`): it exists, so the
    /// question is whether it is the payload at all. The largest limit of any push type, VoIP's, is the one named.
    static let overReadLimitAdvice =
        "is it the right file? APNs takes a payload of at most \(SizeLimit.voip) bytes"
}
