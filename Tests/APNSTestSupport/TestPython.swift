import Foundation

/// The Python 3 interpreters the tests run, each found once per test run and then named by its real path.
/// `python3` on PATH may be a version manager's shim (pyenv's runs a dozen bash processes before Python
/// starts), and checking that an interpreter imports a module starts one more Python: done for every run,
/// both cost more CPU than most of what the scripts do.
public enum TestPython {
    private static let lock = NSRecursiveLock()  // `importing` asks `plain`
    nonisolated(unsafe) private static var found: [String: String] = [:]

    /// The interpreter `python3` on PATH stands for, for scripts that need only the standard library.
    public static func plain() throws -> String {
        try cached("") {
            let r = try CommandRunner.run("python3", ["-c", "import sys; print(sys.executable)"])
            let path = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard r.status == 0, path.hasPrefix("/") else {
                throw TestSupportError("python3 is missing (make deps installs it): \(r.stderr)")
            }
            return path
        }
    }

    /// The first of /usr/bin/python3 (where Debian's packages live, which a shim on PATH may hide) and `python3`
    /// that runs `imports` (Python statements, such as `import h2`); `missing` says what installs them.
    public static func importing(_ imports: String, missing: String) throws -> String {
        try cached(imports) {
            let runs = { (candidate: String) in (try? CommandRunner.run(candidate, ["-c", imports]))?.status == 0 }
            if runs("/usr/bin/python3") { return "/usr/bin/python3" }
            if let path = try? plain(), runs(path) { return path }
            throw TestSupportError(missing)
        }
    }

    /// The interpreter found for `key`, looked for once: a failure is not remembered, so each test that needs
    /// a missing one says so.
    private static func cached(_ key: String, find: () throws -> String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = found[key] { return path }
        let path = try find()
        found[key] = path
        return path
    }
}
