import Testing

@testable import APNSCtlCommands

/// Arguments that are not UTF-8 (a Latin-1 terminal's `Café` is 43 61 66 E9): `main` refuses them (64) before
/// parsing, naming the flag whose value it is; read as Swift reads argv, they would be sent with U+FFFD in place.
@Suite struct ArgumentEncodingTests {
    static let latin1Cafe: [UInt8] = [0x43, 0x61, 0x66, 0xE9]

    @Test func anArgumentThatIsNotUTF8IsNamed() {
        let words: (String) -> [UInt8] = { Array($0.utf8) }
        let advice =
            " is not UTF-8 text (bytes of another encoding, Latin-1 say); set the terminal to UTF-8, or put the text in a UTF-8 file"
        #expect(
            APNSCtl.notUTF8([words("send"), words("--alert"), Self.latin1Cafe, words("-d"), words("ab")])
                == "the value of --alert" + advice)
        #expect(
            APNSCtl.notUTF8([words("send"), words("--alert=") + Self.latin1Cafe]) == "the value of --alert" + advice)
        #expect(APNSCtl.notUTF8([words("validate"), Self.latin1Cafe + words(".json")]) == "argument 2" + advice)
        // UTF-8 text of every kind passes, emoji and all.
        #expect(APNSCtl.notUTF8([words("send"), words("--alert"), words("Café 🚀 日本")]) == nil)
        #expect(APNSCtl.notUTF8([]) == nil)
    }

    /// The command line as the process got it: refused before anything runs, exit 64, on stderr.
    @Test func theCommandRefusesItBeforeParsing() {
        let t = TestWorld()
        t.world.argumentBytes = { [Array("send".utf8), Array("--title".utf8), Self.latin1Cafe] }
        #expect(t.run(["send", "--title", "Caf\u{FFFD}"]) == 64)
        #expect(t.stderr.text.hasPrefix("error: the value of --title is not UTF-8 text"), "\(t.stderr.text)")
        #expect(t.stdout.text.isEmpty)
    }
}
