import APNSCore
import APNSPlatform

/// A yes/no question on the controlling terminal (`/dev/tty`, so it works with stdout redirected), for
/// irreversible actions such as `channel delete`.
enum Confirmation {
    /// Shows `prompt` and reads one line; true only for `y` or `yes` (any case).
    static func ask(_ prompt: String) -> Bool {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        StandardStreams.writeAll(fd: fd, Array(prompt.utf8))
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 64 {
            let n = posixRead(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == 0x0A { break }
            line.append(byte)
        }
        let answer = String(decoding: line, as: UTF8.self).lowercased().filter { $0 != " " && $0 != "\r" }
        return answer == "y" || answer == "yes"
    }
}
