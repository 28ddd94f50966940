import Testing

@testable import APNSCore

/// `JSONReader.parseCollapsingDuplicates(keepingRootMember:)`: top-level members the validator does not read are
/// checked but not kept, and repeated keys are found the same way wherever they are.
@Suite struct JSONReaderRootMembersTests {
    func collapsed(_ text: String, keeping keep: ((String) -> Bool)? = nil) throws -> (JSONValue, JSONDuplicateKeys) {
        try JSONReader.parseCollapsingDuplicates(Array(text.utf8), keepingRootMember: keep)
    }

    func summary(_ duplicates: JSONDuplicateKeys) -> [String] {
        duplicates.listed.map { "\($0.path) \($0.key) \($0.keyStart) \($0.firstKeyStart)" }
    }

    /// The cheap checks in front of the lookups decide as the lookups alone would: a key is an aps key exactly when
    /// `APSKey(rawValue:)` says so, and a slip for "aps" exactly when `Suggestion` finds "aps" close (the Kelvin
    /// sign `K` lowercases to one byte, `k`).
    @Test func theCheapChecksAgreeWithTheLookups() {
        let keys =
            APSKey.allCases.map(\.rawValue)
            + [
                "aps", "APS", "apps", "aps_", "a-p-s", "A_P_S", " aps ", "ap", "asp", "xaps", "apsx", "a-p-s-x",
                "-a-p-s-", "aps-aps", "Aps", "a\u{212A}ps", "\u{212A}aps", "ap\u{212A}", "apš", "äps", "a-pš",
                "key-000000001", "alerts", "Alert", "badge ", "content_state", "contentState", "content-stat",
                "thread-ID", "", "x", "mdm", "Simulator Target Bundle",
            ]
        for key in keys {
            #expect(APSKey.named(key) == APSKey(rawValue: key), "\(key)")
            let slip = key != "aps" && Suggestion.closest(to: key, among: ["aps"]) != nil
            #expect(RootMembersRead.looksLikeAPS(key) == slip, "\(key)")
            #expect(
                RootMembersRead.isApple(key) == ["aps", "mdm", Payload.simulatorTargetBundleKey].contains(key), "\(key)"
            )
        }
    }

    @Test func membersLeftOutAreCheckedForRepeatsLikeKeptOnes() throws {
        let text = #"{"a":1,"x":{"k":1,"k":2},"b":[1,{"c":1,"c":2}],"a":3,"aps":{"alert":"hi","alert":"x"},"b":0}"#
        let (all, allDuplicates) = try collapsed(text)
        let (kept, keptDuplicates) = try collapsed(text) { $0 == "aps" }
        #expect(all.members?.map(\.key) == ["a", "x", "b", "aps"])
        #expect(kept.members?.map(\.key) == ["aps"])
        #expect(kept["aps"]?["alert"]?.string == "x")
        #expect(keptDuplicates.count == 5)
        #expect(summary(keptDuplicates) == summary(allDuplicates))
        #expect(
            summary(keptDuplicates).map { $0.split(separator: " ")[0] } == ["x.k", "b[1].c", "a", "aps.alert", "b"])
    }

    @Test func theFilterIsAskedOncePerKeyAndARepeatFollowsTheFirstCopy() throws {
        var asked: [String] = []
        let (root, duplicates) = try collapsed(#"{"aps":{},"m":1,"aps":{"badge":1},"m":2,"mdm":"x"}"#) { key in
            asked.append(key)
            return key != "m"
        }
        #expect(asked == ["aps", "m", "mdm"])
        #expect(root.members?.map(\.key) == ["aps", "mdm"])
        #expect(root["aps"]?["badge"]?.number?.literal == "1")
        #expect(duplicates.count == 2)
    }

    @Test func escapedAndPlainSpellingsOfAKeyAreOneKeyInSmallAndLargeObjects() throws {
        let many = (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",")
        for text in [
            #"{"a":1,"\u0061":2}"#, "{\(many),\"a\":1,\"\\u0061\":2}", #"{"x":{"é":1,"\u00e9":2}}"#,
            "{\"x\":{\(many),\"\\u00e9\":1,\"é\":2}}",
        ] {
            let (_, keptDuplicates) = try collapsed(text) { _ in false }
            let (_, allDuplicates) = try collapsed(text)
            #expect(keptDuplicates.count == 1, "\(text)")
            #expect(summary(keptDuplicates) == summary(allDuplicates), "\(text)")
        }
        // Canonically equivalent but different code points stay two keys.
        #expect(try collapsed(#"{"K":1,"\u212A":2}"#) { _ in false }.1.count == 0)
    }

    @Test func aTopLevelArrayIsCheckedButItsElementsAreNotKept() throws {
        let (root, duplicates) = try collapsed(#"[1,"two",{"a":1,"a":2},[3]]"#) { _ in true }
        #expect(root.summary == "array")
        #expect(root.elements?.isEmpty == true)
        #expect(root.start == 0 && root.end == 27)
        #expect(summary(duplicates) == ["[2].a a 16 10"])
        #expect(throws: JSONSyntaxError.self) { try collapsed(#"[1,{"a":01}]"#) { _ in true } }
        #expect(throws: JSONSyntaxError.self) { try collapsed(#"{"aps":{},"x":"\ud800"}"#) { $0 == "aps" } }
    }

    /// Past a few hundred thousand keys the table of key offsets grows in place; every repeat is still found, with
    /// the offset of its first copy.
    @Test func repeatsAreFoundAmongHundredsOfThousandsOfKeys() throws {
        let distinct = 300_000
        var text: [UInt8] = Array("{".utf8)
        var firstAt: [Int] = []
        for k in 0..<distinct {
            if k > 0 { text.append(UInt8(ascii: ",")) }
            firstAt.append(text.count)
            text += Array("\"k\(k)\":0".utf8)
        }
        var repeats: [(key: Int, at: Int)] = []
        for i in 0..<500 {
            let key = i * 997 % distinct
            text.append(UInt8(ascii: ","))
            repeats.append((key, text.count))
            text += Array("\"k\(key)\":1".utf8)
        }
        text.append(UInt8(ascii: "}"))
        for keep in [nil, { (_: String) in false }] as [((String) -> Bool)?] {
            let (root, duplicates) = try JSONReader.parseCollapsingDuplicates(text, keepingRootMember: keep)
            #expect(duplicates.count == 500)
            #expect(
                duplicates.listed.map { "\($0.key) \($0.keyStart) \($0.firstKeyStart)" }
                    == repeats.prefix(20).map { "k\($0.key) \($0.at) \(firstAt[$0.key])" })
            #expect(root.members?.count == (keep == nil ? distinct : 0))
        }
    }
}
