import Testing

@testable import APNSCtlCommands

/// `history show`'s payload layout: structure outside strings only, every byte of a string kept, empty
/// containers on their line, and the same result whatever whitespace the payload was written with.
@Suite struct JSONPrettyPrinterTests {
    @Test func stringsKeepTheirPunctuationAndEmptyContainersStayOnTheirLine() {
        let payload = #"{"aps":{"alert":"a, b: {c} [d] \"e\" \\"},"list":[1,{}],"empty":[],"n":-1.5e3}"#
        let expected = """
            {
              "aps": {
                "alert": "a, b: {c} [d] \\"e\\" \\\\"
              },
              "list": [
                1,
                {}
              ],
              "empty": [],
              "n": -1.5e3
            }
            """
        #expect(JSONPrettyPrinter.format(Array(payload.utf8)) == expected)
        let spaced =
            "{ \"aps\" :\n\t{ \"alert\" : \"a, b: {c} [d] \\\"e\\\" \\\\\" } , \"list\" : [ 1 , { } ] ,"
            + " \"empty\" : [ ] , \"n\" : -1.5e3 }\r\n"
        #expect(JSONPrettyPrinter.format(Array(spaced.utf8)) == expected)
    }

    /// A character no terminal may get raw (a bidirectional override, a C1 control, DEL) is shown as JSON's escape,
    /// so the text shown is still the JSON that was sent (`\u{202E}` in it was not); other characters stay as they are.
    @Test func charactersATerminalMustNotGetAreJSONEscapes() {
        let payload = "{\"aps\":{\"alert\":\"b \u{202E} c\u{9B}\u{7F} é ✓\"},\"k\u{2066}\":1}"
        let shown = JSONPrettyPrinter.format(Array(payload.utf8))
        #expect(
            shown == """
                {
                  "aps": {
                    "alert": "b \\u202e c\\u009b\\u007f é ✓"
                  },
                  "k\\u2066": 1
                }
                """, "\(shown)")
    }
}
