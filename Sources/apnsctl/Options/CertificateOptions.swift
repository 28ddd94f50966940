import APNSCore
import APNSCrypto
import ArgumentParser
import APNSPlatform

/// `--cert FILE [--key FILE]`: certificate-based authentication for `send`.
struct CertificateOptions: ParsableArguments {
    @Option(name: [.customShort("c"), .customLong("cert")],
            help: ArgumentHelp("Client certificate: PEM (certificate and key, key optionally encrypted) or PKCS#12 (.p12/.pfx, modern or legacy, empty password allowed). Detected by content.",
                               valueName: "file"), completion: .file())
    var cert: String?

    @Option(name: [.customShort("k"), .customLong("key")],
            help: ArgumentHelp("Private key PEM, when it is not inside --cert.", valueName: "file"), completion: .file())
    var key: String?

    /// The certificate and its key, checked for match and dates at `now` (nil: no date check); nil without `--cert`.
    /// Prints a warning for a certificate without Apple's push markers.
    func loadIdentity(passphrase: PassphraseOptions, now: Int64? = SystemClock.now()) throws(CLIError) -> PushIdentity? {
        guard let cert else { return nil }
        let identity = try withCredentialErrors(flags: .flags(("--cert", cert), ("--key", key))) { () throws(CredentialProblem) in
            try CredentialLoader.loadIdentity(certificatePath: cert, keyPath: key, passphrase: passphrase.source, now: now)
        }
        if !identity.info.isApplePush { StandardStreams.warning(CredentialMessages.notApplePush(cert)) }
        return identity
    }
}
