import APNSTestSupport
import Foundation
import Testing

/// CLI.md "Distribution", the parts that need no release build: the license, the one version and the release
/// workflow's check of the tag against it, the workflows and the Homebrew formula, and `make dist`/`make deb`
/// refusing a binary they must not ship without leaving anything behind. The release artefacts themselves
/// (tarball, .deb, lintian, install into a temporary root) are checked by `make dist-check`, which `make test`
/// runs after `swift test`: a release build cannot run inside `swift test` (SwiftPM's build lock).
@Suite struct DistributionTests {
    /// The version `apnsctl --version` prints: its second word.
    static func binaryVersion() throws -> String {
        let r = try CommandRunner.apnsctl(["--version"])
        let words = r.stdout.split(separator: " ")
        guard r.status == 0, words.count > 1 else {
            throw TestSupportError("apnsctl --version: \(r.stdout)\(r.stderr)")
        }
        return String(words[1])
    }

    /// A Python that has PyYAML (Debian's python3-yaml lives under /usr/bin/python3, which a pyenv shim may hide).
    static func pythonWithYAML() throws -> String {
        try TestPython.importing(
            "import yaml", missing: "python3 with PyYAML is missing (make deps installs python3-yaml)")
    }

    @Test func licenseIsTheApacheLicense2() async throws {
        try await offThePool {
            let text = try String(contentsOfFile: Repository.path("LICENSE"), encoding: .utf8)
            #expect(text.contains("Apache License\n                           Version 2.0, January 2004"))
            for section in 1...9 {
                #expect(text.contains("\n   \(section). "), "section \(section) of the terms is missing")
            }
            #expect(text.contains("END OF TERMS AND CONDITIONS"))
            #expect(text.contains("9. Accepting Warranty or Additional Liability."))
        }
    }

    /// `APNSCtlVersion.current` is the one version: the script the Makefile and the release workflow read it
    /// with gives what the binary prints, and so does the Makefile's VERSION.
    @Test func makefileAndScriptsReadTheVersionTheBinaryPrints() async throws {
        try await offThePool {
            let version = try Self.binaryVersion()
            let script = try CommandRunner.run(Repository.path("scripts/version.sh"), [])
            #expect(script.status == 0 && script.stdout == version + "\n", "\(script.stdout)\(script.stderr)")
            let make = try CommandRunner.run(
                try CommandRunner.which("make"),
                ["-s", "--eval=print-version: ; @echo $(VERSION)", "print-version"],
                directory: Repository.root)
            #expect(make.status == 0 && make.stdout == version + "\n", "\(make.stdout)\(make.stderr)")
        }
    }

    @Test func releaseVersionCheckStopsOnAMismatchedTagWithOneLineNamingBoth() async throws {
        try await offThePool {
            let version = try Self.binaryVersion()
            let script = Repository.path("scripts/version.sh")
            for tag in ["v9.99.0", version, "v\(version)-rc1", "refs/tags/v0.0.0"] {
                let r = try CommandRunner.run(script, ["check-tag", tag])
                #expect(r.status == 1, "\(tag) was accepted")
                #expect(r.errorLines.count == 1 && r.stderr.hasPrefix("error: "), "\(r.stderr)")
                let shownTag = tag.replacingOccurrences(of: "refs/tags/", with: "")
                #expect(r.stderr.contains("'\(shownTag)'") && r.stderr.contains("'\(version)'"), "\(r.stderr)")
            }
            for tag in ["v\(version)", "refs/tags/v\(version)"] {
                let r = try CommandRunner.run(script, ["check-tag", tag])
                #expect(r.status == 0, "\(tag): \(r.stderr)")
            }
        }
    }

    /// The three jobs CLI.md names, and the release's order: version check, then make dist/deb, then upload.
    @Test func workflowsParseAndHoldTheLinuxMacOSAndReleaseJobs() async throws {
        try await offThePool {
            let check = """
                import sys, yaml
                ci = yaml.safe_load(open(sys.argv[1])); rel = yaml.safe_load(open(sys.argv[2]))
                def on(d): return d.get("on", d.get(True))
                def runs(job): return "\\n".join(s.get("run", "") for s in job["steps"])
                linux, mac = ci["jobs"]["linux"], ci["jobs"]["macos"]
                assert linux["runs-on"].startswith("ubuntu"), linux["runs-on"]
                image = linux["container"]["image"] if isinstance(linux["container"], dict) else linux["container"]
                assert image.startswith("swift:6."), "Swift is not pinned: %r" % image
                assert "make test" in runs(linux)
                assert mac["runs-on"].startswith("macos"), mac["runs-on"]
                for needed in ["make deps", "PKG_CONFIG_PATH", "openssl@3", "swift build", "swift test", "git archive", "brew install", "brew test"]:
                    assert needed in runs(mac), "macos job lacks " + needed
                assert on(rel)["push"]["tags"] == ["v*"], on(rel)
                assert rel["permissions"] == {"contents": "write"}, rel["permissions"]
                (job,) = rel["jobs"].values()
                steps = [s.get("run", "") + " " + s.get("uses", "") for s in job["steps"]]
                def at(text): return next(i for i, s in enumerate(steps) if text in s)
                assert at("scripts/version.sh check-tag") < at("make dist") <= at("make deb") < at("action-gh-release")
                files = next(s for s in job["steps"] if "action-gh-release" in s.get("uses", ""))["with"]["files"]
                for f in ["tar.gz", "tar.gz.sha256", ".deb", "apnsctl.rb"]:
                    assert f in files, "release does not attach " + f
                print("ok")
                """
            let r = try CommandRunner.run(
                try Self.pythonWithYAML(),
                [
                    "-c", check, Repository.path(".github/workflows/ci.yml"),
                    Repository.path(".github/workflows/release.yml"),
                ])
            #expect(r.status == 0 && r.stdout == "ok\n", "\(r.stdout)\(r.stderr)")
        }
    }

    @Test func homebrewFormulaParsesAndReleaseFillsItsURLAndChecksum() async throws {
        try await offThePool {
            let ruby = try CommandRunner.which("ruby")
            let formula = Repository.path("packaging/homebrew/apnsctl.rb")
            let syntax = try CommandRunner.run(ruby, ["-c", formula])
            #expect(syntax.status == 0, "\(syntax.stderr)")
            let text = try String(contentsOfFile: formula, encoding: .utf8)
            for needed in [
                "class Apnsctl < Formula", "license \"Apache-2.0\"", "depends_on \"openssl@3\"",
                "depends_on \"libnghttp2\"", "depends_on \"libplist\"", "depends_on \"libzip\"",
                "depends_on \"pkgconf\" => :build", "\"--disable-sandbox\"",
                "generate_completions_from_executable", "test do", ", 65)", "#{version}",
                "url \"https://github.com/apnsctl/apnsctl/archive/refs/tags/v\(try Self.binaryVersion()).tar.gz\"",
            ] {
                #expect(text.contains(needed), "formula lacks \(needed)")
            }
            let sha = String(repeating: "ab", count: 32)
            let filled = try CommandRunner.run(
                "/bin/sh",
                [
                    "-c", "\"$0\" \"$1\" \"$2\" owner/repo < \"$3\"",
                    Repository.path("scripts/formula.sh"),
                    "https://example.invalid/v1.tar.gz", sha, formula,
                ])
            #expect(filled.status == 0, "\(filled.stderr)")
            #expect(filled.stdout.contains("  url \"https://example.invalid/v1.tar.gz\"\n"))
            #expect(filled.stdout.contains("  sha256 \"\(sha)\"\n"))
            #expect(
                filled.stdout.contains("homepage \"https://github.com/owner/repo\"")
                    && !filled.stdout.contains("apnsctl/apnsctl"))
            let dir = try TemporaryDirectory(prefix: "formula")
            let written = try dir.write("apnsctl.rb", filled.stdout)
            #expect(try CommandRunner.run(ruby, ["-c", written]).status == 0)
        }
    }

    /// `make dist`/`make deb BIN=` with the debug binary (it loads the toolchain's libswiftCore.so through a
    /// RUNPATH into the build machine) must refuse with one error line, and write nothing.
    @Test(arguments: ["dist", "deb"]) func packagingRefusesABinaryThatNeedsTheBuildMachinesSwift(target: String) throws
    {
        let dist = try TemporaryDirectory(prefix: "dist")
        let r = try CommandRunner.run(
            try CommandRunner.which("make"), ["-s", target, "BIN=\(CommandRunner.apnsctlPath)"],
            environment: ["DIST_DIR": dist.path], directory: Repository.root, timeout: 120)
        #expect(r.status != 0)
        // One `error:` line from the script; make adds its own `make: *** … Error 1` after it.
        #expect(
            r.errorLines.filter { $0.hasPrefix("error: ") }.count == 1 && r.stderr.hasPrefix("error: "), "\(r.stderr)")
        #if os(Linux)
            #expect(r.stderr.contains("make release"), "\(r.stderr)")
        #else
            #expect(r.stderr.contains("Homebrew"), "\(r.stderr)")
        #endif
        #expect(try FileManager.default.contentsOfDirectory(atPath: dist.path).isEmpty)
    }

    /// On macOS (here: a `uname` that says Darwin) both stop before building anything, with one error line
    /// that points to Homebrew.
    @Test(arguments: ["dist", "deb"]) func packagingOnMacOSStopsWithOneLinePointingToHomebrew(target: String)
        async throws
    {
        try await offThePool {
            let fakeBin = try TemporaryDirectory(prefix: "darwin")
            _ = try fakeBin.write("uname", "#!/bin/sh\necho Darwin\n", mode: 0o755)
            let dist = try TemporaryDirectory(prefix: "dist")
            let path = fakeBin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let r = try CommandRunner.run(
                try CommandRunner.which("make"), ["-s", target, "BIN=\(CommandRunner.apnsctlPath)"],
                environment: ["DIST_DIR": dist.path, "PATH": path], directory: Repository.root)
            #expect(r.status != 0)
            #expect(
                r.errorLines.filter { $0.hasPrefix("error: ") }.count == 1 && r.stderr.hasPrefix("error: "),
                "\(r.stderr)")
            #expect(r.stderr.contains("need Linux") && r.stderr.contains("Homebrew"), "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dist.path).isEmpty)
        }
    }

    /// A step that fails half-way (here: the man pages cannot be generated from a program that is not apnsctl)
    /// exits non-zero and leaves no tarball, .sha256, .deb or scratch folder; what dist/ held stays as it was.
    @Test(arguments: ["dist", "deb"]) func aFailedStepLeavesNothingHalfWritten(target: String) async throws {
        try await offThePool {
            #if os(Linux)
                let dist = try TemporaryDirectory(prefix: "dist")
                let earlier = try dist.write("apnsctl-0.0.1-linux-x86_64.tar.gz", "an earlier release")
                let notApnsctl = try CommandRunner.which("true")
                let r = try CommandRunner.run(
                    try CommandRunner.which("make"), ["-s", target, "BIN=\(notApnsctl)"],
                    environment: ["DIST_DIR": dist.path, "GENERATE_MANUAL": try InstallTests.generateManual()],
                    directory: Repository.root, timeout: 300)
                #expect(r.status != 0)
                #expect(
                    r.errorLines.contains { $0.hasPrefix("error: staging with scripts/install.sh failed") },
                    "\(r.stderr)")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: dist.path) == [
                        "apnsctl-0.0.1-linux-x86_64.tar.gz"
                    ])
                #expect(try String(contentsOfFile: earlier, encoding: .utf8) == "an earlier release")
            #endif
        }
    }
}
