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
}
