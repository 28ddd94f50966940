import APNSPlatform
import APNSTestSupport
import Foundation
import Testing

/// `make install PREFIX=…` and `make uninstall` (CLI.md): the binary, bash/zsh/fish completions in their
/// standard places and one man page per command, generated from the command definitions; uninstall
/// removes all of them. `BIN=` installs the debug binary the tests built, so no release build is needed.
@Suite struct InstallTests {
    static let completions = [
        "share/bash-completion/completions/apnsctl", "share/zsh/site-functions/_apnsctl",
        "share/fish/vendor_completions.d/apnsctl.fish",
    ]
    static let pages = [
        "apnsctl", "apnsctl.send", "apnsctl.validate", "apnsctl.inspect", "apnsctl.convert",
        "apnsctl.jwt", "apnsctl.mock",
    ].map { "share/man/man1/\($0).1" }

    /// swift-argument-parser's generate-manual, built beside apnsctl by `make test`. Without it, it is built
    /// in a scratch path of its own: `swift build` on the package's .build would wait for this test run's lock.
    static func generateManual() throws -> String {
        let beside = URL(fileURLWithPath: CommandRunner.apnsctlPath).deletingLastPathComponent().appendingPathComponent(
            "generate-manual"
        ).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let scratch = NSTemporaryDirectory() + "apnsctl-generate-manual-\(getuid())"
        // SwiftPM keeps its caches under the account's cache folder, not the one commands under test get.
        let own = ProcessInfo.processInfo.environment
        let built = try CommandRunner.run(
            "swift",
            [
                "build", "--product", "generate-manual", "--scratch-path", scratch,
                "--package-path", Repository.root,
            ], environment: own["XDG_CACHE_HOME"].map { ["XDG_CACHE_HOME": $0] } ?? ["HOME": NSHomeDirectory()],
            timeout: 1200)
        guard built.status == 0 else { throw TestSupportError("building generate-manual failed: \(built.stderr)") }
        return scratch + "/debug/generate-manual"
    }

    @Test func installsEverythingAndUninstallRemovesIt() async throws {
        try await offThePool {
            let prefix = try TemporaryDirectory(prefix: "prefix")
            let make = try CommandRunner.which("make")
            let install = try CommandRunner.run(
                make, ["-s", "install", "PREFIX=\(prefix.path)", "BIN=\(CommandRunner.apnsctlPath)"],
                environment: ["GENERATE_MANUAL": try Self.generateManual()],
                directory: Repository.root, timeout: 300)
            #expect(install.status == 0, "\(install.stderr)")
            let fm = FileManager.default
            let version = try CommandRunner.run(prefix.file("bin/apnsctl"), ["--version"])
            #expect(version.status == 0 && version.stdout.hasPrefix("apnsctl "))
            for (file, shell) in zip(Self.completions, ["bash", "zsh", "fish"]) {
                let expected = try CommandRunner.apnsctl(["--generate-completion-script", shell]).stdout
                #expect(fm.contents(atPath: prefix.file(file)) == Data(expected.utf8), "\(file)")
            }
            for page in Self.pages {
                let text = (try? String(contentsOfFile: prefix.file(page), encoding: .utf8)) ?? ""
                let name = URL(fileURLWithPath: page).deletingPathExtension().lastPathComponent
                #expect(text.contains(".Dt \(name.uppercased()) 1") && text.contains(".Sh DESCRIPTION"), "\(page)")
                #expect(!text.contains("\n\n"), "\(page): empty lines left in mdoc")
                // whatis (man -k, lintian's bad-whatis-entry) needs a name without spaces; the synopsis shows the command.
                #expect(text.contains(".Sh NAME\n.Nm \(name)\n"), "\(page): NAME is not \(name)")
                if name.contains(".") {
                    #expect(
                        text.contains("\n.Nm \(name.replacingOccurrences(of: ".", with: "\\ "))\n"),
                        "\(page): synopsis lacks the command")
                }
                if let lexgrog = try? CommandRunner.which("lexgrog") {
                    let whatis = try CommandRunner.run(lexgrog, [prefix.file(page)])
                    #expect(whatis.status == 0 && whatis.stdout.contains(": \"\(name) - "), "\(page): \(whatis.stdout)")
                }
            }
            if let man = try? CommandRunner.which("man") {
                let shown = try CommandRunner.run(
                    man, ["-P", "cat", "apnsctl.send"],
                    environment: ["MANPATH": prefix.file("share/man"), "MANWIDTH": "80"])
                #expect(shown.status == 0 && shown.stdout.contains("apnsctl send"), "\(shown.stderr)")
            }

            let uninstall = try CommandRunner.run(
                make, ["-s", "uninstall", "PREFIX=\(prefix.path)"], directory: Repository.root)
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            for file in ["bin/apnsctl"] + Self.completions + Self.pages {
                #expect(!fm.fileExists(atPath: prefix.file(file)), "\(file) left behind")
            }
            let left =
                fm.enumerator(atPath: prefix.path)?.compactMap { $0 as? String }
                .filter {
                    !(try! fm.attributesOfItem(atPath: prefix.file($0))[.type] as? FileAttributeType == .typeDirectory)
                } ?? []
            #expect(left.isEmpty, "files left: \(left)")
        }
    }
}
