import APNSCore
import APNSCrypto

extension CLIError {
    /// A credential problem: a missing or unreadable file is exit 66, everything else exit 77 (CLI.md).
    /// `passphraseFileFlag` names the flag that gave the passphrase file, for its read failures.
    init(_ problem: CredentialProblem, passphraseFileFlag: String = "--passphrase-file") {
        let message = problem.message(passphraseFileFlag: passphraseFileFlag)
        self = problem.isInputMissing ? .inputMissing(message) : .credential(message)
    }
}

/// Runs credential code and converts its typed failures into CLI errors, so commands stay linear.
func withCredentialErrors<T>(_ body: () throws(CredentialProblem) -> T) throws(CLIError) -> T {
    do { return try body() } catch { throw CLIError(error) }
}

/// Texts shared by every command that reads credentials (inspect, convert, send).
enum CredentialMessages {
    /// The warning for a certificate without Apple's push extensions: shown, not fatal.
    static func notApplePush(_ path: String) -> String {
        "\(path): the certificate has no Apple push extensions or Apple push CN; APNs will answer 403 BadCertificate. "
            + "Use the push certificate from the Apple Developer portal"
    }

    /// An OpenSSL failure while writing: never the user's fault, so an internal error with the detail.
    static func writing(_ what: String, _ error: OpenSSLError) -> CLIError {
        .internalError("writing \(what) failed: \(error.description)")
    }
}
