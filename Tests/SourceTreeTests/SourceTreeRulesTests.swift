import APNSTestSupport
import Foundation
import Testing

/// Rules about the whole source tree that no compiler checks, read from `Sources/`: which types may escape
/// the concurrency checks, which module may see the C library, where terminal code lives and which file
/// makes pipes. Each rule is a function of a file's path and text, tested here on a violation too, so a rule
/// that stopped matching would fail.
@Suite struct SourceTreeRulesTests {
    /// Every Swift source file of the product, with its path under `Sources/` and its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Repository.path("Sources")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
    }

    /// The lines of `text` that are code, not documentation or comments.
    static func codeLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    }

    // MARK: Concurrency escape hatches

    /// Types that may say `@unchecked Sendable`: locks and conditions, a C object or descriptor they own.
    static let primitives: Set<String> = [
        "Lock", "Condition", "LockedValue", "Socket", "FileLock", "Handle", "WakePipe", "WaitableValue", "OutputSink",
        "BackgroundResult",
        "TLSContext", "TLSSession", "PublicKey", "PrivateKey", "SecretBytes", "X509Certificate",
    ]

    /// The types a file declares `@unchecked Sendable` (`final class Name: @unchecked Sendable`, `extension Name: …`).
    static func uncheckedSendableTypes(in text: String) -> [String] {
        codeLines(text).filter { $0.contains("@unchecked Sendable") }.map { line in
            let words = line.split(whereSeparator: { " :<".contains($0) })
            return words.firstIndex { ["class", "struct", "extension"].contains($0) }.flatMap { i in
                i + 1 < words.count ? String(words[i + 1]) : nil
            } ?? String(line)
        }
    }

    @Test func onlyPrimitivesAreUncheckedSendable() throws {
        let all = try Self.sources()
        #expect(!all.isEmpty)
        for (path, text) in all {
            for name in Self.uncheckedSendableTypes(in: text) {
                #expect(Self.primitives.contains(name), "\(path): \(name) is @unchecked Sendable")
            }
        }
        #expect(Self.uncheckedSendableTypes(in: "final class Cache: @unchecked Sendable {") == ["Cache"])
    }

    @Test func nothingIsUnownedUnsafe() throws {
        for (path, text) in try Self.sources() where text.contains("unowned(unsafe)") {
            Issue.record("\(path) uses unowned(unsafe)")
        }
    }

    // MARK: The operating system in one room

    /// Files outside APNSPlatform that may import the C library: none. Kept as a named empty set so that
    /// an exception, if one is ever needed, is written here for review rather than hidden in a test.
    static let cLibraryAllowlist: Set<String> = []

    /// The C libraries a file imports (`import Glibc`, `@_exported import Darwin`, `internal import Musl`, …).
    static func cLibraryImports(in text: String) -> [String] {
        codeLines(text).compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                words[..<i].allSatisfy({
                    $0.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains($0)
                })
            else { return nil }
            let module = words[i + 1].split(separator: ".").first.map(String.init) ?? ""
            return ["Glibc", "Musl", "Darwin", "ucrt", "WinSDK"].contains(module) ? module : nil
        }
    }

    @Test func onlyAPNSPlatformImportsTheCLibrary() throws {
        for (path, text) in try Self.sources()
        where !path.hasPrefix("APNSPlatform/") && !Self.cLibraryAllowlist.contains(path) {
            let found = Self.cLibraryImports(in: text)
            #expect(found.isEmpty, "\(path) imports \(found.joined(separator: ", ")): call APNSPlatform instead")
        }
        #expect(Self.cLibraryImports(in: "import APNSCore\n#if canImport(Glibc)\nimport Glibc\n#endif\n") == ["Glibc"])
        #expect(Self.cLibraryImports(in: "@_exported import Darwin\ninternal import Musl\n") == ["Darwin", "Musl"])
        #expect(
            Self.cLibraryImports(in: "/// Darwin's `signal` returns `sig_t`\n// import Glibc\nimport APNSPlatform\n")
                .isEmpty)
    }

    @Test func apnsPlatformDoesNotReExportTheCLibrary() throws {
        for (path, text) in try Self.sources() where path.hasPrefix("APNSPlatform/") {
            for line in Self.codeLines(text) where line.contains("@_exported") {
                Issue.record(
                    "\(path): \(line.trimmingCharacters(in: .whitespaces)): other modules must not see the C library")
            }
        }
    }

    /// What marks terminal code: termios and its calls, the controlling terminal, the prompt types.
    static let terminalMarkers = [
        "termios", "tcsetattr", "tcgetattr", "isatty", "/dev/tty", "TerminalPrompt", "PromptSignals",
    ]

    /// The terminal markers in `text`'s code.
    static func terminalCode(in text: String) -> [String] {
        let code = codeLines(text).joined(separator: "\n")
        return terminalMarkers.filter { code.contains($0) }
    }

    @Test func apnsCryptoHoldsNoTerminalCode() throws {
        for (path, text) in try Self.sources() where path.hasPrefix("APNSCrypto/") {
            let found = Self.terminalCode(in: text)
            #expect(
                found.isEmpty,
                "\(path) has terminal code (\(found.joined(separator: ", "))): it belongs in APNSPlatform")
        }
        #expect(Self.terminalCode(in: "var t = termios()\n_ = tcsetattr(fd, TCSANOW, &t)") == ["termios", "tcsetattr"])
        #expect(Self.terminalCode(in: "/// asks through a prompt, never the terminal (termios)\nlet x = 1").isEmpty)
    }

    /// Whether `text`'s code calls `pipe(2)`.
    static func callsPipe(_ text: String) -> Bool {
        codeLines(text).contains { line in
            guard let range = line.range(of: "pipe(") else { return false }
            guard range.lowerBound > line.startIndex else { return true }
            let before = line[line.index(before: range.lowerBound)]
            return !(before.isLetter || before.isNumber || before == "_" || before == ".")
        }
    }

    @Test func onlyWakePipeCallsPipe() throws {
        let callers = try Self.sources().filter { Self.callsPipe($0.text) }.map(\.path)
        // WakePipe's pipes wake poll loops; DetachedProcess's is the ready pipe of a background mock.
        #expect(callers == ["APNSPlatform/DetachedProcess.swift", "APNSPlatform/WakePipe.swift"])
        #expect(Self.callsPipe("        guard pipe(&fds) == 0 else { return nil }"))
        #expect(!Self.callsPipe("        let pipe = WakePipe()\n        pipe.signal()\n        makePipe()"))
    }

    // MARK: The commands' outside world

    /// What reads the process's outside world directly: its variables and roots, its clock, its standard
    /// streams and what they are connected to, and the system resolver.
    static let processWorldMarkers = [
        "StandardStreams.", "OutputSink.standardOutput", "MessageStream.standardError", "SystemClock.",
        "SettingsWorld.process",
        "Environment.value(", "Environment.all(", "Environment.setting(", "Environment.home",
        "Environment.passwordDatabaseHome", "NameLookup.system",
        "Environment.currentDirectory", "Environment.isTerminal",
        "Environment.isRegularFileOrNull", "posixWrite", "writeAll(fd:", "readAll(fd: 0",
    ]

    /// The markers in `text`'s code.
    static func processWorldReads(in text: String) -> [String] {
        let code = codeLines(text).joined(separator: "\n")
        return processWorldMarkers.filter { code.contains($0) }
    }

    /// Every command takes the outside world from the `CommandWorld` it runs in, so the
    /// in-process tests see every byte and decide every variable, root and clock reading; only the file that
    /// builds the process's world reads the process.
    @Test func commandsReadTheOutsideWorldOnlyThroughTheirWorld() throws {
        let all = try Self.sources().filter { $0.path.hasPrefix("APNSCtlCommands/") }
        #expect(all.count > 50)
        for (path, text) in all where path != "APNSCtlCommands/Shared/World/CommandWorld.swift" {
            let found = Self.processWorldReads(in: text)
            #expect(
                found.isEmpty,
                "\(path) reads the process directly (\(found.joined(separator: ", "))): take it from the CommandWorld")
        }
        #expect(
            Self.processWorldReads(in: "    let now = SystemClock.now()\n    StandardStreams.warning(x)") == [
                "StandardStreams.", "SystemClock.",
            ])
        #expect(
            Self.processWorldReads(
                in: "/// unlike `Environment.value(_:)`, reads the world\nlet v = world.variable(\"X\")"
            ).isEmpty)
        #expect(
            Self.processWorldReads(in: "for e in APNSEnvironment.allCases { _ = Environment.all() }") == [
                "Environment.all("
            ])
    }
}
