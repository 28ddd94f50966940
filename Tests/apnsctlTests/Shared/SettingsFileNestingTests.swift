import APNSTestSupport
import Foundation
import Testing

/// A settings file nested 50,000 levels deep, read by the built binary: a crash would show as a signal, not an
/// exit status. CLI.md: the TOML reader nests at most 64 levels, and a deeper file is a TOML error (exit 64).
@Suite struct SettingsFileNestingTests {
    @Test func aDottedKeyOrHeaderFiftyThousandLevelsDeepIsExit64NotACrash() throws {
        let dir = try TemporaryDirectory(prefix: "nesting")
        let deep = (1...50_000).map { "k\($0)" }.joined(separator: ".")
        let column = 2 + (1...64).map { "k\($0)".utf8.count + 1 }.reduce(0, +)
        for (name, text, position) in [
            ("dotted.toml", "\(deep) = 1\n", "1:\(column - 1)"),
            ("header.toml", "# deep\n[\(deep)]\n", "2:\(column)"),
            ("array.toml", "[[\(deep)]]\n", "1:\(column + 1)"),
        ] {
            let file = try dir.write(name, text, mode: 0o600)
            let r = try InProcess.apnsctl(["config", "show", "--config", file], environment: ["HOME": dir.path])
            #expect(r.status == 64, "\(name): status \(r.status) \(r.stderr.prefix(300))")
            #expect(
                r.stderr.contains("\(file):\(position): nested more than 64 levels"), "\(name): \(r.stderr.prefix(300))"
            )
        }
    }
}
