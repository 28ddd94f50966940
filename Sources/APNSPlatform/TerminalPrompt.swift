#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

/// Asks for a secret on the controlling terminal without echo (termios on /dev/tty), as `ssh` and
/// `openssl` do, so it works even when stdin and stdout are redirected. While it waits, a signal never
/// leaves the terminal without echo (see `PromptSignals`).
public struct TerminalPrompt: Sendable {
    /// The terminal asked on, opened for each question and closed after it.
    public let path: String
    /// The descriptors that say whether a user is there: standard input and standard error.
    public let input: Int32
    public let error: Int32

    /// A prompt on the terminal at `path`, asked when `input` or `error` is a terminal.
    public init(path: String, input: Int32, error: Int32) {
        self.path = path
        self.input = input
        self.error = error
    }

    /// This process's controlling terminal, asked when its standard input or standard error is a terminal.
    public static let controlling = TerminalPrompt(path: "/dev/tty", input: 0, error: 2)

    /// What a prompt got.
    public enum Answer<Secret> {
        /// A line (maybe empty), as the caller's `keep` made it from the bytes (which are then wiped).
        case secret(Secret)
        /// The user ended the input (Ctrl-D) before a line.
        case ended
        /// There is no terminal to ask on.
        case unavailable
    }

    /// Whether a user can be asked: stdin or stderr is a terminal and the terminal opens.
    /// Tests and CI run without one, so encrypted inputs fail fast there instead of hanging.
    public var isAvailable: Bool {
        guard Environment.isTerminal(input) || Environment.isTerminal(error) else { return false }
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    /// Shows `prompt`, reads one line without echo, restores the terminal, and hands the line to `keep`
    /// (which copies it into something that wipes itself, such as APNSCrypto's `SecretBytes`); the line's
    /// own bytes are wiped when `keep` returns. Ctrl-D on an empty line is `.ended`, after a newline so what
    /// follows starts on its own line.
    public func ask<Secret>(prompt: String, keep: ([UInt8]) -> Secret) -> Answer<Secret> {
        guard Environment.isTerminal(input) || Environment.isTerminal(error) else { return .unavailable }
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .unavailable }
        defer { close(fd) }
        var saved = termios()
        let haveTermios = tcgetattr(fd, &saved) == 0
        var guarded: PromptSignals?
        if haveTermios {
            var quiet = saved
            // tcflag_t is 32 bits on Glibc and 64 on Darwin; converting the flag to it is right on both.
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            guarded = PromptSignals(fd: fd, saved: saved, quiet: quiet, prompt: Array(prompt.utf8))
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        StandardStreams.writeAll(fd: fd, Array(prompt.utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var sawEnd = false
        while true {
            let n = posixRead(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if byte == 0x0A {
                sawEnd = true
                break
            }
            line.append(byte)
        }
        if haveTermios {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
        }
        guarded?.remove()
        if line.last == 0x0D { line.removeLast() }
        defer { Self.wipe(&line) }
        if !sawEnd && line.isEmpty {
            StandardStreams.writeAll(fd: fd, [0x0A])
            return .ended
        }
        if !sawEnd { StandardStreams.writeAll(fd: fd, [0x0A]) }
        return .secret(keep(line))
    }

    /// `ask`, with no distinction between no terminal and ended input (nil for both).
    public func readSecret<Secret>(prompt: String, keep: ([UInt8]) -> Secret) -> Secret? {
        if case .secret(let s) = ask(prompt: prompt, keep: keep) { return s }
        return nil
    }

    /// Shows `prompt` and reads one line with echo (a yes/no answer); nil without a terminal or on Ctrl-D. Ctrl-C
    /// ends the prompt's line before the process dies of it, as at the passphrase prompt, so the shell's next
    /// prompt starts on a line of its own.
    public func readLine(prompt: String) -> String? {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var settings = termios()
        let guarded =
            tcgetattr(fd, &settings) == 0
            ? PromptSignals(fd: fd, saved: settings, quiet: settings, prompt: Array(prompt.utf8)) : nil
        defer { guarded?.remove() }
        StandardStreams.writeAll(fd: fd, Array(prompt.utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = posixRead(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                StandardStreams.writeAll(fd: fd, [0x0A])
                return nil
            }
            if byte == 0x0A { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Writes `text` on the terminal (a "try again" between prompts), not on stderr, which may be a log.
    public func say(_ text: String) {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return }
        StandardStreams.writeAll(fd: fd, Array(text.utf8))
        close(fd)
    }

    /// Overwrites a byte buffer we are done with.
    public static func wipe(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = 0 }
    }
}
