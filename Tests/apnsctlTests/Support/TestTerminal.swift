import APNSPlatform
import APNSTestSupport
import Foundation

/// A pseudo-terminal this process opens, for a command run in-process whose streams are a terminal: its terminal
/// end (`fd`) is handed to the command as a descriptor, and what the terminal shows is collected from the other end
/// as an emulator would get it (the line discipline turns `\n` into `\r\n`).
final class TestTerminal: Sendable {
    /// The terminal end, for the command's standard output or error; closed by `finish`.
    let fd: Int32
    /// The terminal end's path, where a prompt opens it as the binary opens /dev/tty.
    let path: String
    /// The other end: what is written to it is typed on the terminal.
    private let controller: Int32
    private let shown = LockedValue<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        let (openpt, grant, unlock, ptsname) = (
            try Self.function("posix_openpt", as: Call.self), try Self.function("grantpt", as: Call.self),
            try Self.function("unlockpt", as: Call.self), try Self.function("ptsname_r", as: Name.self)
        )
        let controller = openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw TestSupportError("no pseudo-terminal: \(FileSystem.errnoText())") }
        var name = [CChar](repeating: 0, count: 128)
        guard grant(controller) == 0, unlock(controller) == 0, ptsname(controller, &name, name.count) == 0 else {
            close(controller)
            throw TestSupportError("no pseudo-terminal: \(FileSystem.errnoText())")
        }
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.controller = controller
        fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            close(controller)
            throw TestSupportError("opening the pseudo-terminal: \(FileSystem.errnoText())")
        }
        let (shown, done) = (self.shown, self.done)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                // EIO once the terminal end is closed.
                guard n > 0 else { break }
                shown.withLock { $0 += chunk[0..<n] }
            }
            close(controller)
            done.signal()
        }
    }

    /// What the terminal has shown so far.
    var transcript: String { String(decoding: shown.current, as: UTF8.self) }

    /// Plays `steps` as a user at the terminal: waits for each expected text after the one before it, types each
    /// text to send. The step that timed out, if any.
    func play(_ steps: [PseudoTerminal.Step]) -> Int? {
        var seen = 0
        for (index, step) in steps.enumerated() {
            switch step {
            case .send(let text):
                _ = posixWriteAll(controller, Array(text.utf8))
            case .expect(let text, let timeout):
                let needle = Array(text.utf8)
                var end: Int?
                let found = Wait.until(seconds: timeout, interval: 0.02) {
                    let bytes = self.shown.current
                    end = Self.end(of: needle, in: bytes, from: seen)
                    return end != nil
                }
                guard found, let end else { return index }
                seen = end
            }
        }
        return nil
    }

    /// Where the first `needle` at or after `start` ends in `bytes`; nil when there is none.
    private static func end(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count - start >= needle.count else { return needle.isEmpty ? start : nil }
        for i in start...(bytes.count - needle.count) where bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return i + needle.count
        }
        return nil
    }

    /// A C library function Swift's Glibc module leaves out (the pseudo-terminal calls need _XOPEN_SOURCE), looked
    /// up by name.
    private static func function<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let symbol = dlsym(nil, name) else { throw TestSupportError("the C library has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }

    /// Closes the terminal end once the command is done with it, and returns everything the terminal showed (nil
    /// when it did not end within 30 s).
    func finish() -> String? {
        close(fd)
        guard done.wait(timeout: .now() + 30) == .success else { return nil }
        return String(decoding: shown.current, as: UTF8.self)
    }
}
