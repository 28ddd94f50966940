import Testing

@testable import APNSCore

/// Minifying keeps order, duplicates, literals and escapes; only whitespace outside strings goes.
@Suite struct JSONCompactorTests {
    func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func minifyKeepsOrderLiteralsAndEscapes() {
        let source = "{\n  \"b\" : 1.0 ,\n  \"a\": [ true , null ],\n  \"s\": \"x  y\\\" \\u00e9 \",\n  \"b\": 2\n}\n"
        #expect(
            text(JSONCompactor.minify(Array(source.utf8)))
                == "{\"b\":1.0,\"a\":[true,null],\"s\":\"x  y\\\" \\u00e9 \",\"b\":2}")
    }

    /// The count is what minifying writes: whitespace outside strings only, escaped quotes and backslashes inside.
    @Test(arguments: [
        "{ }", " [ 1 , 2 ]\n", #"{"a b" : "c \" d" , "e\\" : [ "\\" , " " ] }"#, "{\t\"x\":\r\n\"é ü\" }",
        #"{"k":"\\\" "}"#,
    ])
    func compactCountIsTheMinifiedLength(_ source: String) throws {
        let minified = try #require(JSONCompactor.minify(Array(source.utf8)))
        #expect(JSONCompactor.compactCount(Array(source.utf8)[...]) == minified.count)
        #expect(JSONCompactor.compactCount(ofValid: Array(source.utf8)) == minified.count)
    }

    @Test func minifyRejectsInvalidJSON() {
        #expect(JSONCompactor.minify(Array("{\"a\":1,}".utf8)) == nil)
        #expect(JSONCompactor.minify([]) == nil)
    }

    @Test func compactWritesOneValueBack() throws {
        let source = Array("{ \"aps\" : { \"alert\" : \"hi there\" , \"badge\" : 1 } }".utf8)
        let aps = try #require(try JSONReader.parse(source)["aps"])
        #expect(text(JSONCompactor.compact(aps, in: source)) == "{\"alert\":\"hi there\",\"badge\":1}")
    }

    @Test func removingATopLevelKeyKeepsTheRestInOrder() throws {
        func removing(_ key: String, from text: String) -> String? {
            self.text(JSONCompactor.removing(key, fromObject: Array(text.utf8)))
        }
        let source =
            "{\n \"x\": 1,\n \"Simulator Target Bundle\": \"com.example.demo\",\n \"aps\": { \"alert\": \"a b\" },\n \"Simulator Target Bundle\": 2\n}"
        #expect(removing("Simulator Target Bundle", from: source) == "{\"x\":1,\"aps\":{\"alert\":\"a b\"}}")
        #expect(removing("nope", from: "{ }") == "{}")
        #expect(JSONCompactor.countRemoving("Simulator Target Bundle", fromObject: Array(source.utf8)) == 29)
        #expect(
            removing(
                "Simulator Target Bundle", from: #"{"Simulator\u0020Target Bundle":1, "x" : [ 1 , {"y" : "a b\" "} ] }"#
            ) == #"{"x":[1,{"y":"a b\" "}]}"#)
    }
}

/// The JSON writer escapes correctly and places commas itself.
@Suite struct JSONWriterTests {
    @Test func writesNestedStructureWithCommas() {
        var w = JSONWriter()
        w.beginObject()
        w.field("file", "a \"b\".json")
        w.field("valid", false)
        w.field("size", 12)
        w.field("ms", 23.5)
        w.field("reason", nil as String?)
        w.key("list")
        w.beginArray()
        w.number(1)
        w.string("x")
        w.beginObject()
        w.endObject()
        w.null()
        w.endArray()
        w.key("raw")
        w.raw(Array("{\"a\":1}".utf8))
        w.endObject()
        #expect(
            w.text
                == #"{"file":"a \"b\".json","valid":false,"size":12,"ms":23.5,"reason":null,"list":[1,"x",{},null],"raw":{"a":1}}"#
        )
    }

    @Test func escapesControlCharactersAndKeepsUnicode() throws {
        let s = "q\"b\\n\n r\r t\t b\u{8} f\u{C} nul\u{0} esc\u{1B} é😀 \u{7F}\u{85}\u{2028}\u{A0}"
        let quoted = JSONWriter.quoted(s)
        #expect(quoted == "\"q\\\"b\\\\n\\n r\\r t\\t b\\b f\\f nul\\u0000 esc\\u001b é😀 \\u007f\\u0085\\u2028\u{A0}\"")
        #expect(try JSONReader.parse(Array(quoted.utf8)).string == s, "round-trips through the reader")
    }

    @Test func nonFiniteNumbersBecomeNull() {
        var w = JSONWriter()
        w.beginArray()
        w.number(Double.infinity)
        w.number(Double.nan)
        w.number(-0.25)
        w.endArray()
        #expect(w.text == "[null,null,-0.25]")
    }
}
