import APNSPlatform
import Testing

/// CLI.md, "Exit codes": with no home directory the token cache is skipped, never put in /tmp, and a relative
/// `HOME` counts as none. The home is `$HOME` when set (an absolute path to a directory, else none), else the
/// password database's entry when it names a directory, else none. The entry and the directories that exist are
/// given here, so a uid without an entry (a container's bare uid) and a missing home are rows of the table.
@Suite struct HomeDirectoryTests {
    static let existing: Set<String> = ["/home/ann", "/home/bob"]

    @Test(
        arguments: [
            (["HOME": "/home/ann"], "/home/bob", "/home/ann"),
            (["HOME": "/home/ann"], nil, "/home/ann"),
            ([:], "/home/bob", "/home/bob"),
            (["HOME": ""], "/home/bob", "/home/bob"),
            ([:], nil, nil),
            (["HOME": ""], "", nil),
            ([:], "not/absolute", nil),
            // Set but unusable: none, and the entry is not taken instead of what the caller set.
            (["HOME": "relative"], "/home/bob", nil),
            (["HOME": "relative"], nil, nil),
            (["HOME": "/nonexistent"], "/home/bob", nil),
            // Unset, with an entry naming no directory (Debian's service users): none.
            ([:], "/nonexistent", nil),
        ] as [([String: String], String?, String?)])
    func homeIsHOMEElseThePasswordEntryElseNone(
        _ variables: [String: String], _ entry: String?, _ expected: String?
    ) {
        #expect(
            Environment.home(variables: variables, passwordDatabase: { entry }, isDirectory: Self.existing.contains)
                == expected)
    }

    /// `$HOME` set: the password database is not asked (a lookup can be slow with a network directory), whether
    /// or not the directory is there.
    @Test(arguments: ["/home/ann", "/nonexistent", "relative"])
    func thePasswordDatabaseIsAskedOnlyWithoutHOME(home: String) {
        var asked = false
        _ = Environment.home(
            variables: ["HOME": home],
            passwordDatabase: {
                asked = true
                return nil
            }, isDirectory: Self.existing.contains)
        #expect(!asked)
    }

    /// What a message says of a missing home: what `$HOME` held.
    @Test func theAbsenceSaysWhatHOMEHeld() {
        let missing = Environment.HomeAbsence(variables: ["HOME": "/nonexistent"], exists: { _ in false })
        #expect(missing == .missing("/nonexistent"))
        let file = Environment.HomeAbsence(variables: ["HOME": "/etc/passwd"], exists: { _ in true })
        #expect(file == .notADirectory("/etc/passwd"))
        #expect(Environment.HomeAbsence(variables: ["HOME": "relative"]) == .relative("relative"))
        #expect(Environment.HomeAbsence(variables: ["HOME": ""]) == .unset)
        #expect(Environment.HomeAbsence(variables: [:]) == .unset)
    }
}
