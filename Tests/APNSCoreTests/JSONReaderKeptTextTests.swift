import Testing

@testable import APNSCore

/// The checking parse keeps the start of a string or key longer than `JSONReader.keptTextLimit` and its whole
/// length; keys are still compared whole, in the source.
@Suite struct JSONReaderKeptTextTests {
    let limit = JSONReader.keptTextLimit

    func collapsed(_ text: String) throws -> (JSONValue, JSONDuplicateKeys) {
        try JSONReader.parseCollapsingDuplicates(Array(text.utf8), keeping: nil)
    }

    @Test func aLongStringOrKeyIsCutToItsStartWithItsLength() throws {
        let long = String(repeating: "a", count: limit + 10)
        let text = "{\"\(long)\":\"\(long)\",\"short\":\"\(String(repeating: "b", count: limit))\"}"
        let (root, _) = try collapsed(text)
        let member = try #require(root.members?.first)
        #expect(member.key == String(repeating: "a", count: limit))
        #expect(member.keyCutLength == limit + 10)
        #expect(member.value.string == member.key && member.value.cutLength == limit + 10)
        #expect(member.value.wholeString == nil)
        #expect(member.shownKey == String(repeating: "a", count: 37) + "...")
        #expect(member.value.shownString == member.shownKey)
        #expect(root["short"]?.cutLength == nil && root["short"]?.wholeString?.utf8.count == limit)
        // The plain reader keeps everything.
        let whole = try JSONReader.parse(Array(text.utf8))
        #expect(whole.members?.first?.key == long && whole.members?.first?.keyCutLength == nil)
        #expect(whole.members?.first?.value.string == long && whole.members?.first?.value.cutLength == nil)
    }

    @Test func aCutKeepsWholeCharactersWithOrWithoutEscapes() throws {
        for (written, decoded) in [("é", "é"), (#"\u00e9"#, "é"), ("a", "a"), (#"\n"#, "\n"), ("😀", "😀")] {
            for lead in ["", "a", "ab", "abc"] {
                let text = "[\"" + lead + String(repeating: written, count: limit + 1) + "\"]"
                let (root, _) = try JSONReader.parseCollapsingDuplicates(Array(text.utf8), keepingRootMember: nil)
                let value = try #require(root.elements?.first)
                let whole = lead.utf8.count + decoded.utf8.count * (limit + 1)
                #expect(value.cutLength == whole, "\(written) after \(lead)")
                let kept = try #require(value.string)
                #expect(kept.utf8.count <= limit && kept.utf8.count > limit - decoded.utf8.count, "\(written)")
                #expect(
                    kept == lead
                        + String(repeating: decoded, count: (kept.utf8.count - lead.utf8.count) / decoded.utf8.count))
            }
        }
    }

    @Test func longKeysSharingTheirStartAreTwoKeysAndTheSameKeySpelledTwoWaysIsOne() throws {
        let start = String(repeating: "k", count: limit)
        let (root, duplicates) = try collapsed("{\"\(start)a\":1,\"\(start)b\":2}")
        #expect(root.members?.count == 2 && duplicates.count == 0)
        #expect(JSONValue.effectiveMembers(root.members ?? []).count == 2)
        #expect(JSONValue.duplicateKeys(in: root.members ?? []).isEmpty)

        let escaped = String(repeating: #"\u006b"#, count: limit) + "a"
        let (again, repeats) = try collapsed("{\"x\":{\"\(escaped)\":1,\"\(start)a\":2,\"\(start)b\":3}}")
        #expect(again["x"]?.members?.count == 2)
        #expect(repeats.count == 1)
        #expect(repeats.listed.first?.key == String(repeating: "k", count: 37) + "...")
        #expect(repeats.listed.first?.path == "x." + String(repeating: "k", count: 37) + "...")
    }

    @Test func aKeyOfEscapesIsFoundAgainAfterTheTableGrows() throws {
        // Enough keys to grow the table several times, each spelled once with escapes and once plain.
        let keys = (0..<200).map { "key-\($0)-" + String(repeating: "z", count: $0 % 3 == 0 ? limit : 3) }
        let escaped = keys.map { $0.unicodeScalars.map { "\\u00" + String($0.value, radix: 16) }.joined() }
        let members = keys.map { "\"\($0)\":1" } + escaped.map { "\"\($0)\":2" }
        let (root, duplicates) = try collapsed("{" + members.joined(separator: ",") + "}")
        #expect(root.members?.count == 200)
        #expect(duplicates.count == 200)
    }

    @Test func aLongNumberIsCutToItsStartWithItsValue() throws {
        let zeros = String(repeating: "0", count: limit)
        let cases: [(String, Double)] = [
            ("1" + zeros, .infinity), ("-1" + zeros, -.infinity), ("0." + zeros + "1", 0),
            ("1764151200." + zeros + "7", 1_764_151_200),
            ("-1." + String(repeating: "2", count: limit) + "e-5", -1.2222222222222222e-5),
            ("1" + zeros + "e-" + String(limit), 1), ("12" + zeros + "E-" + String(limit + 1), 1.2),
        ]
        for (literal, value) in cases {
            let (root, _) = try collapsed("[\(literal)]")
            let number = try #require(root.elements?.first?.number)
            #expect(number.doubleValue == value, "\(literal.prefix(20))")
            #expect(number.cutValue != nil && number.intValue == nil && !number.isIntegerOne)
            #expect(number.literal == String(literal.prefix(37)) + "...")
            #expect(JSONNumber(reading: Array(literal.utf8)[...]) == number)
            // The plain reader keeps the literal.
            #expect(try JSONReader.parse(Array("[\(literal)]".utf8)).elements?.first?.number?.literal == literal)
        }
        let (short, _) = try collapsed("[1" + String(repeating: "0", count: limit - 1) + "]")
        #expect(short.elements?.first?.number?.cutValue == nil)
    }
}
