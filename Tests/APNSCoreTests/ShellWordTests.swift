import APNSCore
import Testing

/// A value in a command we print for pasting is one shell word: left as typed when no shell treats any of its
/// characters specially, else single-quoted, with a quote inside closed and reopened.
@Suite struct ShellWordTests {
    @Test(arguments: [
        ("/tmp/keys/AuthKey_ABC.p8", "/tmp/keys/AuthKey_ABC.p8"), ("a=b", "a=b"), ("user@host:path", "user@host:path"),
        ("/tmp/my keys/k.p8", "'/tmp/my keys/k.p8'"), ("it's", #"'it'\''s'"#), ("", "''"), ("=ls", "'=ls'"),
        ("~/k.p8", "'~/k.p8'"), ("$HOME", "'$HOME'"), ("a*b", "'a*b'"), ("é", "'é'"),
    ])
    func aWordIsQuotedOnlyWhenAShellWouldReadItOtherwise(_ text: String, _ word: String) {
        #expect(ShellWord.of(text) == word)
    }
}
