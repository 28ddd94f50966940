import APNSCrypto

extension PassphraseSource {
    /// A known passphrase and no other source: no variable, no prompt.
    public static func literal(_ text: String) -> PassphraseSource {
        PassphraseSource(text: text, filePath: nil, environmentVariable: nil, prompt: nil)
    }
}
