import APNSCore
import APNSCrypto
import APNSPlatform
import ArgumentParser

/// `--cert FILE [--key FILE]`: certificate-based authentication for `send`.
struct CertificateOptions: ParsableArguments {
    @Option(
        name: [.customShort("c"), .setting(.cert)],
        help: ArgumentHelp(
            "Client certificate: PEM (certificate and key, key optionally encrypted) or PKCS#12 (.p12/.pfx, modern or legacy, empty password allowed). Detected by content; - reads it from standard input.",
            valueName: "file"), completion: .file())
    var cert: String?

    @Option(
        name: [.customShort("k"), .setting(.key)],
        help: ArgumentHelp(
            "Private key PEM, when it is not inside --cert; - reads it from standard input.", valueName: "file"),
        completion: .file())
    var key: String?
}
