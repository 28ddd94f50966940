import APNSPlatform
import Testing

/// CLI.md, "Exit codes": with no home directory the token cache is skipped, never put in /tmp, and a relative
/// `HOME` counts as none. The home is `$HOME` when absolute, else the password database's entry, else none. The
/// entry is given here, so a uid without one (a container's bare uid) is a row of the table.
@Suite struct HomeDirectoryTests {
    @Test(
        arguments: [
            (["HOME": "/home/ann"], "/home/bob", "/home/ann"),
            (["HOME": "/home/ann"], nil, "/home/ann"),
            ([:], "/home/bob", "/home/bob"),
            (["HOME": ""], "/home/bob", "/home/bob"),
            (["HOME": "relative"], "/home/bob", "/home/bob"),
            ([:], nil, nil),
            (["HOME": "relative"], nil, nil),
            (["HOME": ""], "", nil),
            ([:], "not/absolute", nil),
        ] as [([String: String], String?, String?)])
    func homeIsHOMEElseThePasswordEntryElseNone(
        _ variables: [String: String], _ entry: String?, _ expected: String?
    ) {
        #expect(Environment.home(variables: variables, passwordDatabase: { entry }) == expected)
    }

    /// `$HOME` set: the password database is not asked (a lookup can be slow with a network directory).
    @Test func thePasswordDatabaseIsAskedOnlyWithoutHOME() {
        var asked = false
        _ = Environment.home(variables: ["HOME": "/home/ann"]) {
            asked = true
            return nil
        }
        #expect(!asked)
    }
}
