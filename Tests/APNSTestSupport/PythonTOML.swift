import APNSPlatform
import Foundation

/// Python's own TOML reader (`tomllib`, or `tomli` before Python 3.11; `make deps` installs it), as the
/// yardstick for apnsctl's: the settings file is TOML, not a dialect, so both must agree on every text.
public enum PythonTOML {
    /// A Python 3 that can read TOML.
    public static func interpreter() throws -> String {
        try TestPython.importing(
            "import sys\ntry:\n import tomllib\nexcept ModuleNotFoundError:\n import tomli",
            missing: "python3 with tomllib (3.11+) or tomli is missing (make deps installs python3-tomli)")
    }

    /// For each document, Python's canonical reading (`Tests/Interop/toml_canonical.py`), or nil when it refuses it.
    public static func canonical(_ documents: [String]) throws -> [String?] {
        var json = "["
        for (i, d) in documents.enumerated() {
            if i > 0 { json += "," }
            json += "\""
            for s in d.unicodeScalars {
                switch s {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                default:
                    if s.value < 0x20 || s.value == 0x7F {
                        let hex = String(s.value, radix: 16)
                        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        json.unicodeScalars.append(s)
                    }
                }
            }
            json += "\""
        }
        json += "]"
        let lines = try Reader.shared.answers(json)
        guard lines.count == documents.count else {
            throw TestSupportError("toml_canonical.py: \(lines.count) answers for \(documents.count) documents")
        }
        return lines.map { $0 == "ERROR" ? nil : $0 }
    }

    /// One `toml_canonical.py` for the whole test run, asked by one test at a time: started per question, Python
    /// and its TOML reader cost more CPU than the answers. It ends when this process does (its input closes).
    private final class Reader: @unchecked Sendable {
        static let shared = Reader()
        private let lock = NSLock()
        private var running: (process: Process, input: FileHandle, output: FileHandle, errors: TemporaryDirectory)?

        /// The answer lines to one line of `json` (a list of documents), without the closing `END`.
        func answers(_ json: String) throws -> [String] {
            lock.lock()
            defer { lock.unlock() }
            let reader = try running ?? start()
            running = reader
            var received: [UInt8] = []
            do {
                try reader.input.write(contentsOf: Data((json + "\n").utf8))
                // Every answer line starts with "{" or is "ERROR", so a line "END" is the end.
                while !(received.elementsEqual("END\n".utf8) || received.suffix(5).elementsEqual("\nEND\n".utf8)) {
                    // What the pipe holds, not a count to wait for (`read(upToCount:)` waits to fill it).
                    let data = reader.output.availableData
                    guard !data.isEmpty else {
                        throw TestSupportError("it ended")
                    }
                    received += data
                }
            } catch {
                running = nil
                reader.process.terminate()
                let stderr = (try? reader.errors.read("stderr")) ?? ""
                throw TestSupportError("toml_canonical.py: \(error): \(stderr)")
            }
            return String(decoding: received.dropLast(4), as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        }

        private func start() throws -> (Process, FileHandle, FileHandle, TemporaryDirectory) {
            let errors = try TemporaryDirectory(prefix: "toml-reader")
            let stderr = errors.file("stderr")
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try interpreter())
            process.arguments = [Repository.path("Tests/Interop/toml_canonical.py")]
            let (input, output) = (Pipe(), Pipe())
            process.standardInput = input
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
            ProcessSignals.ignoreBrokenPipe()  // a reader that died is an error, not this process's end
            try process.runAsAShellWould()
            // This process's ends are its own: a child started later (by a command run in-process) holding the
            // writing end would keep the reader from seeing its input close when the tests end.
            for end in [input.fileHandleForWriting, output.fileHandleForReading] {
                _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
            return (process, input.fileHandleForWriting, output.fileHandleForReading, errors)
        }
    }

    /// Whether Python reads `text` as TOML.
    public static func accepts(_ text: String) throws -> Bool { try canonical([text])[0] != nil }
}
