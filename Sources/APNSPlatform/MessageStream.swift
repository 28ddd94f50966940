import APNSCore

/// Where messages go: standard error in the binary, a buffer in in-process tests. Unbuffered: each message is
/// one write, so messages keep their order with standard output's flushed lines and with child processes. A
/// failed write ends quietly: a message that cannot reach stderr has nowhere left to be reported.
public struct MessageStream: Sendable {
    private let writeBytes: @Sendable ([UInt8]) -> Void

    /// A stream handing every message's bytes to `write`.
    public init(write: @escaping @Sendable ([UInt8]) -> Void) { writeBytes = write }

    /// This process's standard error (descriptor 2).
    public static let standardError = descriptor(2)

    /// Messages written to the open descriptor `fd` (standard error, or a terminal a test gives a command).
    public static func descriptor(_ fd: Int32) -> MessageStream { MessageStream { _ = posixWriteAll(fd, $0) } }

    /// This stream with every occurrence of each of `secrets` described instead of shown (`VariableEcho`): the
    /// last guard for values typed on the command line, whatever check quoted one.
    public func hiding(_ secrets: Set<String>) -> MessageStream {
        guard !secrets.isEmpty else { return self }
        let write = writeBytes
        return MessageStream { bytes in
            var text = String(decoding: bytes, as: UTF8.self)
            for secret in secrets where text.contains(secret) {
                text = text.replacing(secret, with: "(" + VariableEcho.description(of: secret) + ", not shown)")
            }
            write(Array(text.utf8))
        }
    }

    /// Writes `text` as it is.
    public func print(_ text: String) { writeBytes(Array(text.utf8)) }

    /// `error: …`, one line. Messages quote input (file names, tokens, flag values, server answers): control
    /// characters in them are escaped, line breaks too, so no input drives the terminal or starts a line that reads
    /// as another message (a file named `x\nerror: …`). Several problems are several calls.
    public func error(_ message: String) { print("error: \(PrintableText.escapingControls(message))\n") }

    /// `warning: …`, escaped as `error` is.
    public func warning(_ message: String) { print("warning: \(PrintableText.escapingControls(message))\n") }
}
