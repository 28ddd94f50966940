import Testing

@testable import APNSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reader keeps what a validator needs: positions, order, duplicates, number literals.
@Suite struct JSONReaderTests {
    func parse(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONReader.parse(bytes)
            return nil
        } catch { return error }
    }

    func syntaxError(_ text: String) -> JSONSyntaxError? { syntaxError(Array(text.utf8)) }

    @Test func keepsKeyOrderDuplicatesAndOffsets() throws {
        let text = "{\"b\": 1, \"a\": [true, null], \"b\": \"x\"}"
        let root = try parse(text)
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(members[0].keyStart == 1)
        #expect(members[1].value.start == 14)
        #expect(members[1].value.end == 26)
        #expect(root["b"]?.string == "x", "the last copy counts")
        #expect(root.start == 0 && root.end == text.utf8.count)
        #expect(JSONValue.duplicateKeys(in: members).map { [$0.repeat, $0.first] } == [[2, 0]])
        #expect(JSONValue.effectiveMembers(members).map(\.key) == ["a", "b"])
    }

    @Test func duplicatesInLargeObjectsUseTheHashPath() throws {
        let keys = (0..<40).map { "\"k\($0 % 30)\":\($0)" }.joined(separator: ",")
        let members = try #require(try parse("{\(keys)}").members)
        let repeats = JSONValue.duplicateKeys(in: members)
        #expect(repeats.count == 10)
        #expect(repeats.first.map { [$0.repeat, $0.first] } == [30, 0])
        let effective = JSONValue.effectiveMembers(members)
        #expect(effective.count == 30)
        #expect(effective.last?.value.number?.literal == "39")
    }

    @Test func keysCompareByBytesNotCanonicalEquivalence() throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K" in Swift, but JSON keys compare by code units.
        let root = try parse("{\"K\": 1, \"\\u212A\": 2}")
        let members = try #require(root.members)
        #expect(JSONValue.duplicateKeys(in: members).isEmpty)
        #expect(root["K"]?.number?.literal == "1")
    }

    @Test func numbersKeepTheirExactKind() throws {
        let root = try parse("[1, 1.0, 1e0, -0, 99999999999999999999, 1E+2, 0.5e-3, true]")
        let e = try #require(root.elements)
        #expect(
            e[0].number?.isIntegerLiteral == true && e[0].number?.intValue == 1 && e[0].number?.isIntegerOne == true)
        #expect(
            e[1].number?.isIntegerLiteral == false && e[1].number?.literal == "1.0"
                && e[1].number?.isIntegerOne == false)
        #expect(e[2].number?.literal == "1e0" && e[2].number?.intValue == nil)
        #expect(e[3].number?.intValue == 0 && e[3].number?.literal == "-0")
        #expect(e[4].number?.isIntegerLiteral == true && e[4].number?.intValue == nil, "too big for Int, no trap")
        #expect(e[5].number?.doubleValue == 100)
        #expect(e[6].number?.doubleValue == 0.0005)
        #expect(e[7].number == nil && e[7].bool == true, "true is not the number 1")
        #expect(try parse("1e400").number?.doubleValue == .infinity)
    }

    @Test func decodesEscapesAndUnicode() throws {
        let root = try parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC", "\uD83D\uDE00", "é€😀", "\u0000"]"#)
        let s = try #require(root.elements).map { $0.string ?? "?" }
        #expect(s[0] == "a\"b\\c/d\u{8}\u{C}\n\r\t")
        #expect(s[1] == "é€")
        #expect(s[2] == "😀")
        #expect(s[3] == "é€😀")
        #expect(s[4] == "\u{0}")
    }

    @Test func acceptsEveryScalarAndWhitespace() throws {
        #expect(try parse(" \t\r\n{ } \n").members?.isEmpty == true)
        #expect(try parse("[]").elements?.isEmpty == true)
        #expect(try parse("null").summary == "null")
        #expect(try parse("\"\"").string == "")
        #expect(try parse("-12.5E3").number?.literal == "-12.5E3")
    }

    @Test func positionsCountLinesAndUTF8ByteColumns() throws {
        let text = "{\n  \"é\": 1,\n\t\"b\": [x]\n}"
        let e = try #require(syntaxError(text))
        #expect(e.line == 3)
        #expect(e.column == 8, "tab and quote bytes count one column each")
        let bytes = Array("ab\ncdé\nf".utf8)
        #expect(LineTable.position(of: 0, in: bytes) == TextPosition(line: 1, column: 1))
        #expect(LineTable.position(of: 3, in: bytes) == TextPosition(line: 2, column: 1))
        #expect(LineTable.position(of: 7, in: bytes) == TextPosition(line: 2, column: 5), "é is two bytes")
        #expect(LineTable.position(of: 8, in: bytes) == TextPosition(line: 3, column: 1))
        #expect(
            LineTable.positions(of: [8, 0, 7], in: bytes)
                == [
                    TextPosition(line: 3, column: 1), TextPosition(line: 1, column: 1),
                    TextPosition(line: 2, column: 5),
                ])
    }

    /// Every message of the reader, with where it points.
    @Test(
        arguments: [
            ("", 1, 1, "empty input: expected a JSON value"),
            ("   ", 1, 4, "expected a JSON value, found end of input"),
            ("{\"a\":1,}", 1, 7, "trailing comma before '}'; remove the comma"),
            ("[1,2,]", 1, 5, "trailing comma before ']'; remove the comma"),
            ("{\"a\" 1}", 1, 6, "expected ':' after the object key \"a\", found '1'"),
            ("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' after an object member, found '\"'"),
            ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
            ("{a:1}", 1, 2, "expected a string key in double quotes after '{', found 'a'"),
            ("{\"a\":1,b:1}", 1, 8, "expected a string key in double quotes after ',', found 'b'"),
            (
                "{'a':1}", 1, 2,
                "expected a string key in double quotes after '{', found \"'\"; JSON strings and keys use double quotes"
            ),
            (
                "['a']", 1, 2,
                "expected a JSON value (object, array, string, number, true, false or null), found \"'\"; JSON strings and keys use double quotes"
            ),
            ("{// c\n}", 1, 2, "comments are not allowed in JSON; remove them"),
            ("[1] /* c */", 1, 5, "unexpected '/' after the JSON value; a payload holds exactly one JSON object"),
            ("{} {}", 1, 4, "unexpected '{' after the JSON value; a payload holds exactly one JSON object"),
            ("[NaN]", 1, 2, "NaN is not valid JSON; use a finite number or null"),
            ("[Infinity]", 1, 2, "Infinity is not valid JSON; use a finite number or null"),
            ("[True]", 1, 2, "found 'True'; JSON literals are lowercase true, false and null"),
            ("[nul]", 1, 2, "expected a JSON value (object, array, string, number, true, false or null), found 'n'"),
            ("[truex]", 1, 2, "expected a JSON value (object, array, string, number, true, false or null), found 't'"),
            ("[+1]", 1, 2, "found '+'; JSON numbers have no plus sign"),
            ("[.5]", 1, 2, "found '.'; JSON numbers need a digit before the decimal point (0.5)"),
            ("[-]", 1, 3, "expected a digit after '-', found ']'"),
            ("[01]", 1, 2, "numbers may not start with a leading zero; remove it"),
            ("[1.]", 1, 4, "expected a digit after the decimal point, found ']'"),
            ("[1e]", 1, 4, "expected a digit in the exponent, found ']'"),
            ("[1e+]", 1, 5, "expected a digit in the exponent, found ']'"),
            ("[}", 1, 2, "expected a JSON value, found '}'"),
            ("{\"a\":1", 1, 7, "expected ',' or '}' after an object member, found end of input"),
            ("\"abc", 1, 1, "unterminated string; add the closing '\"'"),
            ("\"a\\", 1, 3, "unterminated escape at the end of input"),
            (
                "\"a\nb\"", 1, 3,
                "a line break inside a string: its closing quote is missing? (a line break in a value is written \\n)"
            ),
            ("\"a\tb\"", 1, 3, "control character U+0009 inside a string; write it as \\t"),
            (
                "\"\\x\"", 1, 2,
                "invalid escape '\\x' in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            ),
            ("\"\\u12G4\"", 1, 2, "\\u must be followed by four hex digits, found 'G'"),
            ("\"\\uD800\"", 1, 2, "lone high surrogate \\uD800 in a string; follow it with a \\uDC00-\\uDFFF escape"),
            (
                "\"\\uD800\\u0041\"", 1, 2,
                "lone high surrogate \\uD800 in a string; follow it with a \\uDC00-\\uDFFF escape"
            ),
            (
                "\"\\uDC00\"", 1, 2,
                "lone low surrogate \\uDC00 in a string; a \\uDC00-\\uDFFF escape must follow a \\uD800-\\uDBFF one"
            ),
            (
                "{“a”:1}", 1, 2,
                "expected a string key in double quotes after '{', found '“' (U+201C); JSON needs straight double quotes"
            ),
        ] as [(String, Int, Int, String)])
    func reportsEachSyntaxError(text: String, line: Int, column: Int, message: String) throws {
        let e = try #require(syntaxError(text), "accepted \(text)")
        #expect(e.message == message)
        #expect(e.line == line && e.column == column, "at \(e.line):\(e.column)")
    }

    @Test(
        arguments: [
            ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF in a string; save the file as UTF-8"),
            ([0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 byte 0xC0 in a string; save the file as UTF-8"),  // overlong NUL
            (
                [0x22, 0xED, 0xA0, 0x80, 0x22],
                "invalid UTF-8 sequence starting with byte 0xED in a string; save the file as UTF-8"
            ),  // encoded surrogate
            (
                [0x22, 0xE9, 0x74, 0x22],
                "invalid UTF-8 sequence starting with byte 0xE9 in a string; save the file as UTF-8"
            ),  // Latin-1 é
            ([0x22, 0xF0, 0x9F, 0x98], "truncated UTF-8 sequence at the end of input; save the file as UTF-8"),
            (
                [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
                "invalid UTF-8 sequence starting with byte 0xF4 in a string; save the file as UTF-8"
            ),  // > U+10FFFF
            (
                [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],
                "byte order mark (EF BB BF) before the JSON; save the file as UTF-8 without BOM"
            ),
            // UTF-16, as Windows PowerShell's > writes it: little-endian with its mark, without, and big-endian.
            (
                [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00],
                "UTF-16 text (as Windows PowerShell's > writes it), not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8)"
            ),
            (
                [0x7B, 0x00, 0x22, 0x00, 0x61, 0x00],
                "UTF-16 text (as Windows PowerShell's > writes it), not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8)"
            ),
            (
                [0x00, 0x7B, 0x00, 0x7D],
                "UTF-16 text (as Windows PowerShell's > writes it), not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-16 -t UTF-8, or Out-File -Encoding utf8)"
            ),
            // UTF-32 (iconv -t UTF-32 writes its mark, little-endian here): not called UTF-16, whose iconv makes garbage.
            (
                [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00, 0x7D, 0x00, 0x00, 0x00],
                "UTF-32 text, not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-32 -t UTF-8)"
            ),
            (
                [0x7B, 0x00, 0x00, 0x00, 0x7D, 0x00, 0x00, 0x00],
                "UTF-32 text, not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-32 -t UTF-8)"
            ),
            (
                [0x00, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00, 0x7D],
                "UTF-32 text, not UTF-8, which APNs takes; save it as UTF-8 (iconv -f UTF-32 -t UTF-8)"
            ),
            ([0x7B, 0x00, 0x7D], "expected a string key in double quotes after '{', found character U+0000"),
            ([0x22, 0x00, 0x22], "control character U+0000 inside a string; write it as \\u0000"),
            (
                [0x5B, 0xC2, 0x85, 0x5D],
                "expected a JSON value (object, array, string, number, true, false or null), found character U+0085"
            ),
            (
                [0x5B, 0xE2, 0x80, 0xAE, 0x5D],
                "expected a JSON value (object, array, string, number, true, false or null), found character U+202E"
            ),
            (
                [0x5B, 0xC3, 0xA9, 0x5D],
                "expected a JSON value (object, array, string, number, true, false or null), found 'é' (U+00E9)"
            ),
            (
                [0xFE],
                "expected a JSON value (object, array, string, number, true, false or null), found byte 0xFE (not UTF-8)"
            ),
        ] as [([UInt8], String)])
    func rejectsBadBytesWithoutTrapping(bytes: [UInt8], message: String) throws {
        let e = try #require(syntaxError(bytes))
        #expect(e.message == message)
    }

    @Test func nestingUpToTheLimitIsFineBeyondItIsAnError() throws {
        let limit = JSONReader.maximumDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { _ = try parse(ok) }
        let deepObjects = String(repeating: "{\"a\":", count: limit) + "1" + String(repeating: "}", count: limit)
        #expect(throws: Never.self) { _ = try parse(deepObjects) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let e = try #require(syntaxError(tooDeep))
        #expect(e.message == "nesting deeper than 512 levels of arrays and objects; flatten the payload")
        #expect(e.column == limit + 1)
        // A hostile depth far past the limit must fail fast, not overflow the stack.
        let e2 = try #require(syntaxError([UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)))
        #expect(e2.offset == limit)
    }

    /// Wide containers are read in linear time: appending to a container used to copy it, so a
    /// 12 MB payload with a million keys kept `validate` (and `send -`) busy for hours.
    @Test func wideContainersParseInLinearTime() throws {
        let array = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
        let object = "{" + (0..<50_000).map { "\"k\($0)\":1" }.joined(separator: ",") + "}"
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            #expect(try parse(array).elements?.count == 100_000)
            let root = try parse(object)
            #expect(root.members?.count == 50_000)
            let report = PayloadValidator.validate(
                Payload(bytes: Array(object.utf8), isAPNSFile: false), options: ValidationOptions())
            #expect(report.hasErrors)
        }
        // Linear parsing takes about 1.5 s in a debug build on an idle 2-core machine; the quadratic copy took
        // minutes at this size. The bound tells the two apart with room for a machine busy with other builds.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test func summariesDescribeValuesForMessages() throws {
        #expect(try parse("\"5\"").summary == "string \"5\"")
        #expect(try parse("1.50").summary == "number 1.50")
        #expect(try parse("false").summary == "boolean false")
        #expect(try parse("null").summary == "null")
        #expect(try parse("[]").summary == "array")
        #expect(try parse("{}").summary == "object")
        let long = try parse("\"" + String(repeating: "x", count: 100) + "\"").summary
        #expect(long == "string \"" + String(repeating: "x", count: 37) + "...\"")
    }
}
