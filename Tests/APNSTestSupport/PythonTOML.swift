#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
/// Python's own TOML reader (`tomllib`, or `tomli` before Python 3.11; `make deps` installs it), as the
/// yardstick for apnsctl's: the settings file is TOML, not a dialect, so both must agree on every text.
public enum PythonTOML {
    /// A Python 3 that can read TOML.
    public static func interpreter() throws -> String {
        for candidate in ["/usr/bin/python3", "python3"] {
            if let r = try? CommandRunner.run(
                candidate, ["-c", "import sys\ntry:\n import tomllib\nexcept ModuleNotFoundError:\n import tomli"]),
                r.status == 0
            {
                return candidate
            }
        }
        throw TestSupportError("python3 with tomllib (3.11+) or tomli is missing (make deps installs python3-tomli)")
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
        let r = try CommandRunner.run(
            try interpreter(), [Repository.path("Tests/Interop/toml_canonical.py")], stdin: Array(json.utf8))
        guard r.status == 0 else { throw TestSupportError("toml_canonical.py: \(r.stderr)") }
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        guard lines.count == documents.count else {
            throw TestSupportError(
                "toml_canonical.py: \(lines.count) answers for \(documents.count) documents: \(r.stderr)")
        }
        return lines.map { $0 == "ERROR" ? nil : $0 }
    }

    /// Whether Python reads `text` as TOML.
    public static func accepts(_ text: String) throws -> Bool { try canonical([text])[0] != nil }
}
