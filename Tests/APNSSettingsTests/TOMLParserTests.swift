import APNSTestSupport
import Testing

@testable import APNSSettings

/// apnsctl's TOML reader against Python's `tomllib` on the same texts (valid ones read to the same values,
/// invalid ones refused by both), then the positions it reports.
@Suite struct TOMLParserTests {
    /// The same canonical form as `Tests/Interop/toml_canonical.py`.
    static func canonical(_ value: TOMLValue) -> String {
        switch value {
        case .boolean(let b): return "b:\(b)"
        case .integer(let i): return "i:\(i)"
        case .float(let d): return d.isNaN ? "f:nan" : "f:\(Int64(bitPattern: d.bitPattern))"
        case .string(let s): return "s:" + jsonQuoted(s)
        case .dateTime: return "d"
        case .array(let items): return "[" + items.map { canonical($0.value) }.joined(separator: ",") + "]"
        case .table(let t):
            return "{"
                + t.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
                .map { jsonQuoted($0) + "=" + canonical(t[$0]?.value ?? .boolean(false)) }.joined(separator: ",") + "}"
        }
    }

    /// `json.dumps(s, ensure_ascii=True)`.
    static func jsonQuoted(_ s: String) -> String {
        var out = "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    static func ours(_ text: String) -> String? {
        (try? TOMLParser.parse(Array(text.utf8))).map { canonical(.table($0)) }
    }

    static let valid: [String] = [
        "", "# only a comment\n", "a = 1", "a = 1\r\nb = 2\r\n",
        "default-profile = \"dev\"\n[profiles.dev]\nauth-key = \"~/keys/AuthKey_ABCDE12345.p8\"   # comment\nteam-id = \"TEAMID1234\"\n",
        "a = \"tab\\there \\u00e9 \\U0001F600 \\\" \\\\ \\b\\f\\n\\r\"", "a = 'C:\\path\\no escapes'", "a = \"\"",
        "a = \"\"\"\nfirst\nsecond\"\"\"", "a = \"\"\"one \\\n    two\"\"\"", "a = '''\nraw \\n '''",
        "a = \"\"\"x\"\"\"\"\"",
        "a = '''x'''''", "a = \"\"\"a \"\" b\"\"\"", "a = \"\"\"\r\nwin\r\nlines\"\"\"",
        "a = 0\nb = +17\nc = -5\nd = 1_000\ne = 0xDEAD_beef\nf = 0o755\ng = 0b1101\nh = 9223372036854775807\ni = -9223372036854775808",
        "a = 3.14\nb = -0.01\nc = 5e+22\nd = 1e06\ne = -2E-2\nf = 6.626e-34\ng = 224_617.445_991\nh = inf\ni = -inf\nj = nan\nk = +nan\nl = 0.0\nm = -0.0",
        "a = true\nb = false",
        "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999-07:00\nd = 1979-05-27 07:32:00Z\ne = 1979-05-27T07:32:00\nf = 1979-05-27\ng = 07:32:00\nh = 00:32:00.999999\ni = 2024-02-29",
        "a = [1, 2, 3]\nb = [\"x\", 'y']\nc = [[1, 2], [\"a\"]]\nd = [\n  1,\n  2, # two\n]\ne = []\nf = [1, \"mixed\", 2.0, true]",
        "a = { x = 1, y.z = 2 }\nb = {}\nc = [{ a = 1 }, { a = 2 }]",
        "[a]\nx = 1\n[a.b]\ny = 2\n[c.d.e]\nz = 3",
        "[a.b.c]\nx = 1\n[a]\ny = 2",
        "[[p]]\nn = 1\n[[p]]\nn = 2\n[p.sub]\nq = 3\n[[p.list]]\nr = 4",
        "a.b.c = 1\na.b.d = 2\na.e = 3",
        "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true",
        "\"quoted key\" = 1\n'literal key' = 2\n\"\" = 3\na.\"b.c\".d = 4\n 1234 = 5\n-_- = 6",
        "[ spaced . header ]\nx = 1", "[\"quoted.header\"]\nx = 1", "a = 1 # trailing\n\n\n# end",
        "[devices]\nmy-iphone = \"3f2a\"\n[profiles.dev.devices]\nqa = \"77b0\"",
        "endpoint = [\"sandbox=https://127.0.0.1:1\", \"production=https://127.0.0.1:2\"]",
        "a = \"é ü 日本\"\n\"ключ\" = 1",
        "[a.b.c]\n[a]\nb.d = 1", "[a]\nb.c = 1\n[a.b.d]\nx=1", "a.b = 1\n[a.c]\nx = 1",
        "[[a]]\nb.c = 1\n[a.b.d]\nx = 1",
    ]

    static let invalid: [String] = [
        "a", "a =", "a = ", "= 1", "a = 1 b = 2", "a = 1\na = 2", "a = hello", "a = \"unterminated", "a = 'x",
        "a = \"\"\"never closed", "a = \"bad \\q escape\"", "a = \"\\u12\"", "a = \"\\uD800\"", "a = \"line\nbreak\"",
        "a = \"ctrl \u{01}\"", "# ctrl \u{01} in comment", "a = 01", "a = 1__0", "a = _1", "a = 1_", "a = 0X1F",
        "a = +0x1",
        "\u{FEFF}a = 1\n", "a = .5", "a = 5.", "a = 1e", "a = 1.e5", "a = 03.14", "a = Inf", "a = True",
        "a = 1979-13-01", "a = 1979-02-30", "a = 2023-02-29", "a = 24:00:00", "a = 07:32", "a = 1979-05-27T07:32Z",
        "a = 1979-05-27T07:32:00+7:00", "[a]\n[a]", "[a]\nb = 1\n[a.b]", "a.b = 1\n[a]", "a = 1\n[a]",
        "a = {x = 1}\n[a.b]",
        "a = {x = 1}\na.y = 2", "a = { x = 1, }", "a = { x = 1\n}", "a = { x = 1, x = 2 }", "a = [1 2]", "a = [1,,2]",
        "a = [",
        "[[a]]\n[a]", "a = []\n[[a]]", "[a]]", "[a", "[]", "[[a]", "a.b = 1\na.b.c = 2", "a = 1\r", "a = 1\rb = 2",
        "\"multi\nline\" = 1", "\"\"\"k\"\"\" = 1", "a = \"\"\"x\"\"\"\"\"\"", "key = \"x\" # ok\nkey2 = 'y' 'z'",
        "a = [1, 2] 3", "\u{FF}a = 1", "[a.b]\nx=1\n[a]\nb.y = 2", "a = {b = 1}\n[[a.c]]", "a = 1979-05-27T07:32:00.Z",
    ]

    @Test func agreesWithPythonOnValidDocuments() throws {
        let python = try PythonTOML.canonical(Self.valid)
        for (text, expected) in zip(Self.valid, python) {
            #expect(expected != nil, "Python refused a document this table calls valid: \(text)")
            #expect(Self.ours(text) == expected, "read differently: \(text)")
        }
    }

    @Test func agreesWithPythonOnInvalidDocuments() throws {
        let python = try PythonTOML.canonical(Self.invalid)
        for (text, expected) in zip(Self.invalid, python) {
            #expect(
                expected == nil, "Python accepted a document this table calls invalid: \(text) -> \(expected ?? "")")
            #expect(Self.ours(text) == nil, "accepted: \(text)")
        }
    }

    /// TOML 1.0 says integers are 64-bit and an overflow is an error; tomllib reads any size, so this one is
    /// held against the spec alone.
    @Test func integersOutside64BitsAreRefused() {
        #expect(Self.ours("a = 9223372036854775808") == nil)
        #expect(Self.ours("a = -9223372036854775809") == nil)
        #expect(error("a = 99999999999999999999")?.message.contains("64 bits") == true)
        // Digits that fit, but are no TOML integer: said for what they are, not for their size.
        for (text, said) in [
            ("05", "integer 05: TOML takes no leading zero; write 5"),
            ("-007", "integer -007: TOML takes no leading zero; write -7"),
            ("00", "integer 00: TOML takes no leading zero; write 0"),
            ("1__0", "integer 1__0: an underscore goes only between two digits (1_000)"),
            ("_1", "integer _1: an underscore goes only between two digits (1_000)"),
            ("1_", "integer 1_: an underscore goes only between two digits (1_000)"),
        ] {
            #expect(error("a = \(text)")?.message == said, "\(text)")
        }
    }

    /// Plain decimal integers take a shorter path (`TOMLParser.plainDecimal`); its edges read as the general one
    /// reads them: a lone zero, leading zeros refused, 18 digits and 19, signs and underscores.
    @Test(
        arguments: [
            ("0", "i:0"), ("7", "i:7"), ("00", nil), ("01", nil), ("123456789012345678", "i:123456789012345678"),
            ("999999999999999999", "i:999999999999999999"), ("9223372036854775807", "i:9223372036854775807"),
            ("1_000", "i:1000"), ("+5", "i:5"), ("-0", "i:0"), ("0x1F", "i:31"), ("1e3", "f:4652007308841189376"),
            ("5 ", "i:5"), ("٣", nil),
        ] as [(String, String?)])
    func plainIntegersReadAsTheGeneralPathReadsThem(_ text: String, _ expected: String?) {
        #expect(Self.ours("a = \(text)") == expected.map { "{\"a\"=\($0)}" }, "\(text)")
    }

    func error(_ text: String) -> TOMLSyntaxError? { errorBytes(Array(text.utf8)) }

    func errorBytes(_ bytes: [UInt8]) -> TOMLSyntaxError? {
        do {
            _ = try TOMLParser.parse(bytes)
            return nil
        } catch { return error }
    }

    @Test func syntaxErrorsCarryLineAndColumn() throws {
        let e = try #require(error("a = 1\n[profiles.dev]\ntopic = com.example.app\n"))
        #expect(e.position == TOMLPosition(line: 3, column: 9))
        #expect(e.message.contains("quotes"))
        let dup = try #require(error("x = 1\n\n  x = 2"))
        #expect(dup.position == TOMLPosition(line: 3, column: 3))
        #expect(dup.message.contains("first at line 1"))
        #expect(dup.message.hasSuffix("; a key is given once: keep the line you mean and delete the other"))
        let table = try #require(error("[x.a]\nb = 1\n[x]\na = 1\n"))
        #expect(
            table.message.hasSuffix("it names a table there, so keep one of the two: the table's lines or this one"))
        let unterminated = try #require(error("a = 1\nb = \"open"))
        #expect(unterminated.position == TOMLPosition(line: 2, column: 5))
        let twice = try #require(error("[a]\nx = 1\n[a]\n"))
        #expect(twice.position == TOMLPosition(line: 3, column: 1))
        // Columns count UTF-8 bytes: "é" is two.
        let bytes = try #require(error("é = 1"))
        #expect(bytes.position == TOMLPosition(line: 1, column: 1))
        let afterUnicode = try #require(error("\"é\" = x"))
        #expect(afterUnicode.position == TOMLPosition(line: 1, column: 8))
    }

    /// Two names that differ only in Unicode form (`café` composed and decomposed) are two names to TOML and one to
    /// apnsctl: said as such, where "defined twice" and "duplicate key" named what looked like one name twice.
    @Test func namesInAnotherUnicodeFormAreSaidToBeOne() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(!composed.utf8.elementsEqual(decomposed.utf8) && composed == decomposed)
        for text in [
            "[profiles.\"\(composed)\"]\ntopic = \"a\"\n[profiles.\"\(decomposed)\"]\ntopic = \"b\"\n",
            "\"\(composed)\" = 1\n\"\(decomposed)\" = 2\n",
        ] {
            let e = try #require(error(text))
            #expect(e.message.contains("written in another Unicode form"), "\(e.message)")
            #expect(e.message.contains("line 1") || e.message.contains("line 1;"), "\(e.message)")
        }
        // The same bytes twice are still a duplicate.
        let same = try #require(error("\"\(composed)\" = 1\n\"\(composed)\" = 2\n"))
        #expect(same.message.contains("duplicate key"), "\(same.message)")
    }

    /// A control character is named by its code point, as the JSON reader names one; UTF-16 (an editor's or
    /// PowerShell's save) is called so, not only "not UTF-8".
    @Test func controlCharactersAndUTF16AreNamed() throws {
        let nul = try #require(error("topic = \"x\u{0}y\"\n"))
        #expect(nul.message.contains("U+0000"), "\(nul.message)")
        #expect(!nul.message.contains("\\x"), "\(nul.message)")
        let utf16 = try #require(
            errorBytes([0xFF, 0xFE] + Array("a = 1\n".utf8).flatMap { [$0, 0] }))
        #expect(utf16.message.hasPrefix("UTF-16 text"), "\(utf16.message)")
        let bare = try #require(errorBytes(Array("a = 1\n".utf8).flatMap { [$0, 0] }))
        #expect(bare.message.hasPrefix("UTF-16 text"), "\(bare.message)")
    }

    @Test func everyKeyKeepsItsLine() throws {
        let root = try TOMLParser.parse(
            Array(
                "default-profile = \"dev\"\n\n[profiles.dev]\ntopic = \"a\"\n# c\nenv = \"sandbox\"\n[profiles.dev.devices]\nphone = \"00ff\"\n"
                    .utf8))
        #expect(root["default-profile"]?.position.line == 1)
        guard case .table(let profiles)? = root["profiles"]?.value, case .table(let dev)? = profiles["dev"]?.value
        else {
            Issue.record("no profiles.dev")
            return
        }
        #expect(profiles["dev"]?.position.line == 3)
        #expect(dev["topic"]?.position == TOMLPosition(line: 4, column: 1))
        #expect(dev["env"]?.position.line == 6)
        #expect(dev.keys == ["topic", "env", "devices"])
        guard case .table(let devices)? = dev["devices"]?.value else {
            Issue.record("no devices")
            return
        }
        #expect(devices["phone"]?.position.line == 8)
    }

    @Test func hostileNestingIsAnErrorNotACrash() {
        let deep = "a = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(error(deep)?.message.contains("nested") == true)
        let deepTables = "a = " + String(repeating: "{b = ", count: 5_000) + "1" + String(repeating: "}", count: 5_000)
        #expect(error(deepTables) != nil)
    }
}
