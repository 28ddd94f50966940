import APNSCrypto
import APNSPlatform
import Testing

/// `PassphraseSource` asks through the prompt it is given (the CLI's is the terminal): a fake stands in
/// here, so the asking rules are tested without a terminal.
@Suite struct PassphraseSourcePromptTests {
    /// Answers from a list and records what it was asked and told.
    final class FakePrompt: PassphrasePrompt {
        private let state: LockedValue<(answers: [PassphraseAnswer], asked: [String], said: [String])>
        init(_ answers: [PassphraseAnswer]) { state = LockedValue((answers, [], [])) }

        func ask(_ prompt: String) -> PassphraseAnswer {
            state.withLock { s in
                s.asked.append(prompt)
                return s.answers.isEmpty ? .unavailable : s.answers.removeFirst()
            }
        }

        func say(_ text: String) { state.withLock { $0.said.append(text) } }

        var asked: [String] { state.withLock { $0.asked } }
        var said: [String] { state.withLock { $0.said } }
    }

    static func secret(_ text: String) -> PassphraseAnswer { .secret(SecretBytes(Array(text.utf8))) }

    static func text(_ secret: SecretBytes) -> String { secret.withBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func theSourcesBeforeThePromptWinAndThePromptIsAskedOnce() throws {
        let prompt = FakePrompt([Self.secret("typed")])
        let fromFlag = PassphraseSource(text: "given", environmentVariable: nil, prompt: prompt)
        #expect(try fromFlag.resolve(forFile: "key.pem").map(Self.text) == "given")
        #expect(prompt.asked.isEmpty)

        let asking = PassphraseSource(environmentVariable: nil, prompt: prompt)
        #expect(try asking.resolve(forFile: "key.pem").map(Self.text) == "typed")
        // A certificate and its key share the answer: no second prompt.
        #expect(try asking.resolve(forFile: "cert.pem").map(Self.text) == "typed")
        #expect(prompt.asked == ["Passphrase for key.pem: "])
    }

    /// A credential piped in (`security export … | apnsctl inspect -`) is asked about as such, not as "-".
    @Test func aCredentialFromStandardInputIsNamedSoInThePrompt() throws {
        for path in ["-", "/dev/stdin"] {
            let prompt = FakePrompt([Self.secret("wrong"), Self.secret("right")])
            let source = PassphraseSource(environmentVariable: nil, prompt: prompt)
            let got = try source.withPassphrase(forFile: path) { secret throws(CredentialProblem) -> String? in
                Self.text(secret) == "right" ? "opened" : nil
            }
            #expect(got == "opened")
            #expect(
                prompt.asked == Array(repeating: "Passphrase for the credential read from standard input: ", count: 2))
            #expect(prompt.said == ["Wrong passphrase for the credential read from standard input; try again.\n"])
        }
    }

    @Test func aWrongTypedPassphraseMayBeTypedAgainUpToThreeTimes() throws {
        let prompt = FakePrompt([Self.secret("one"), Self.secret("two"), Self.secret("right")])
        let source = PassphraseSource(environmentVariable: nil, prompt: prompt)
        let got = try source.withPassphrase(forFile: "k.p12") { secret throws(CredentialProblem) -> String? in
            Self.text(secret) == "right" ? "opened" : nil
        }
        #expect(got == "opened")
        #expect(prompt.asked.count == 3)
        #expect(prompt.said == Array(repeating: "Wrong passphrase for k.p12; try again.\n", count: 2))

        let stubborn = FakePrompt([Self.secret("a"), Self.secret("b"), Self.secret("c"), Self.secret("d")])
        #expect(throws: CredentialProblem.wrongPassphrase(path: "k.p12")) {
            try PassphraseSource(environmentVariable: nil, prompt: stubborn).withPassphrase(forFile: "k.p12") {
                _ throws(CredentialProblem) -> Int? in nil
            }
        }
        #expect(stubborn.asked.count == PassphraseSource.terminalTries)
    }

    @Test func endedAndUnavailableAnswersAreTheirOwnProblems() {
        #expect(throws: CredentialProblem.passphraseEntryEnded(path: "k.pem")) {
            try PassphraseSource(environmentVariable: nil, prompt: FakePrompt([.ended])).resolve(forFile: "k.pem")
        }
        #expect(throws: CredentialProblem.passphraseRequired(path: "k.pem")) {
            try PassphraseSource(environmentVariable: nil, prompt: FakePrompt([.unavailable])).withPassphrase(
                forFile: "k.pem"
            ) { _ throws(CredentialProblem) -> Int? in 1 }
        }
        // Without a prompt nobody is asked, and a flag's wrong passphrase is not asked again.
        let none = FakePrompt([])
        #expect(throws: CredentialProblem.wrongPassphrase(path: "k.pem")) {
            try PassphraseSource(text: "x", environmentVariable: nil, prompt: none).withPassphrase(forFile: "k.pem") {
                _ throws(CredentialProblem) -> Int? in nil
            }
        }
        #expect(none.asked.isEmpty && none.said.isEmpty)
    }
}
