import Foundation
import Testing

@testable import APNSSettings

/// The TOML reader's bounds (CLI.md, "Exit codes"): at most 64 levels of nesting however they are written
/// (dotted keys, table headers, arrays, inline tables), refused as a syntax error with a line and column rather
/// than a crash, and time linear in the input for the constructs a file can repeat.
@Suite struct TOMLParserBoundsTests {
    func error(_ text: String) -> TOMLSyntaxError? {
        do {
            _ = try TOMLParser.parse(Array(text.utf8))
            return nil
        } catch { return error }
    }

    /// `k1.k2.….kN`.
    static func dotted(_ count: Int) -> String { (1...count).map { "k\($0)" }.joined(separator: ".") }

    @Test func dottedKeysAndHeadersFiftyThousandDeepAreAnErrorNotACrash() throws {
        let deep = Self.dotted(50_000)
        for text in ["\(deep) = 1\n", "[\(deep)]\n", "[[\(deep)]]\n", "x = 1\n\n  [\(deep)]\n"] {
            let e = try #require(error(text), "accepted: \(text.prefix(40))")
            #expect(e.message.contains("nested more than 64 levels"), "\(e.message)")
        }
        // The error names the first name too deep: the 65th, on its own line.
        let e = try #require(error("x = 1\n\n[\(deep)]\n"))
        let column = 2 + (1...64).map { "k\($0)".utf8.count + 1 }.reduce(0, +)
        #expect(e.position == TOMLPosition(line: 3, column: column))
    }

    @Test func sixtyFourLevelsAreReadAndSixtyFiveRefused() throws {
        for (text, levels) in [
            ("\(Self.dotted(64)) = 1", 64), ("[\(Self.dotted(64))]", 64),
            ("[\(Self.dotted(32))]\n\(Self.dotted(32)) = 1", 64),
            ("[[\(Self.dotted(63))]]", 64),
            ("a = " + String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63), 64),
            ("a = " + String(repeating: "{b = ", count: 63) + "1" + String(repeating: "}", count: 63), 64),
        ] {
            let table = try TOMLParser.parse(Array(text.utf8))
            #expect(Self.depth(of: table) == levels, "\(text.prefix(60))")
        }
        for text in [
            "\(Self.dotted(65)) = 1", "[\(Self.dotted(65))]", "[\(Self.dotted(64))]\nx.y = 1",
            "[\(Self.dotted(33))]\n\(Self.dotted(32)) = 1", "[[\(Self.dotted(64))]]",
            "[[a]]\n[a.\(Self.dotted(63))]",
            "a = " + String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64),
            "a = " + String(repeating: "{b = ", count: 64) + "1" + String(repeating: "}", count: 64),
        ] {
            #expect(error(text)?.message.contains("nested more than 64") == true, "accepted: \(text.prefix(60))")
        }
    }

    /// How many levels the deepest value sits below the root (each key and each array position is one).
    static func depth(of table: TOMLTable) -> Int {
        table.entries.map { 1 + depth(of: $0.node.value) }.max() ?? 0
    }

    static func depth(of value: TOMLValue) -> Int {
        switch value {
        case .table(let t): return depth(of: t)
        case .array(let items): return items.map { 1 + depth(of: $0.value) }.max() ?? 0
        default: return 0
        }
    }

    /// Each construct a file can repeat, filled to the settings file's 1 MiB cap: `[[profiles]]` alone took
    /// over 30 s (each header copied the array of tables before it). Linear is judged by the ratio to a quarter
    /// of the input (4 when linear, 16 when quadratic), in the thread's CPU time, not by a wall clock.
    @Test func repeatedConstructsUpToOneMiBAreReadInLinearTime() throws {
        func filled(_ size: Int, _ make: (Int) -> String) -> String {
            var text = ""
            var i = 0
            while text.utf8.count < size - 64 {
                text += make(i)
                i += 1
            }
            return text
        }
        let constructs: [(String, (Int) -> String)] = [
            ("[[profiles]]", { filled($0) { _ in "[[profiles]]\n" } }),
            ("[[profiles]] with keys", { filled($0) { "[[profiles]]\nn = \($0)\n" } }),
            ("[[a]] with [a.b] under each", { filled($0) { "[[a]]\n[a.b\($0)]\n" } }),
            ("[[a.b]] under one [[a]]", { "[[a]]\n" + filled($0) { _ in "[[a.b]]\n" } }),
            ("keys in one table", { filled($0) { "k\($0) = 1\n" } }),
            ("tables", { filled($0) { "[t\($0)]\n" } }),
            ("dotted keys extending one table", { filled($0) { "a.k\($0) = 1\n" } }),
            ("array elements", { "a = [" + filled($0) { _ in "1," } + "]" }),
            ("inline table keys", { "a = {" + filled($0) { "k\($0) = 1," } + "z = 1}" }),
        ]
        /// The parsing thread's own CPU time, which other tests running beside it do not inflate as they do the
        /// wall clock; the fastest of two runs.
        func secondsToParse(_ text: String) -> Double {
            let bytes = Array(text.utf8)
            func threadSeconds() -> Double {
                var now = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
            }
            return (0..<2).map { _ in
                let start = threadSeconds()
                #expect(throws: Never.self) { _ = try TOMLParser.parse(bytes) }
                return threadSeconds() - start
            }.min() ?? 0
        }
        for (name, make) in constructs {
            let quarter = secondsToParse(make(1 << 18))
            let whole = secondsToParse(make(1 << 20))
            #expect(whole < 60, "\(name): \(whole) s for 1 MiB")
            #expect(whole < 10 * max(quarter, 0.1), "\(name): \(whole) s for 1 MiB, \(quarter) s for 256 KiB")
        }
    }
}
