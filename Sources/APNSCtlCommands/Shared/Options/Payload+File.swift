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
}
