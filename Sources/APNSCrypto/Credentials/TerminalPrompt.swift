import APNSCore

/// Asks for a secret on the controlling terminal without echo (termios on /dev/tty), as `ssh` and
/// `openssl` do, so it works even when stdin and stdout are redirected.
public enum TerminalPrompt {
    /// Whether a user can be asked: stdin or stderr is a terminal and /dev/tty opens.
    /// Tests and CI run without one, so encrypted inputs fail fast there instead of hanging.
    public static var isAvailable: Bool {
        guard Environment.isTerminal(0) || Environment.isTerminal(2) else { return false }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    /// Shows `prompt`, reads one line without echo, restores the terminal; nil when there is no terminal
    /// or the user closed input. The caller owns (and the type wipes) the returned bytes.
    public static func readSecret(prompt: String) -> SecretBytes? {
        guard Environment.isTerminal(0) || Environment.isTerminal(2) else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let haveTermios = tcgetattr(fd, &saved) == 0
        if haveTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
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
            if byte == 0x0A { sawEnd = true; break }
            line.append(byte)
        }
        if haveTermios {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
        }
        if line.last == 0x0D { line.removeLast() }
        let secret = SecretBytes(line)
        wipe(&line)
        return sawEnd || !secret.isEmpty ? secret : nil
    }

    /// Overwrites a byte buffer we are done with.
    static func wipe(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = 0 }
    }
}
