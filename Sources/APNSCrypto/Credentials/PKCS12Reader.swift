internal import COpenSSL
import APNSCore

/// Opens a `.p12`/`.pfx`: empty password first (no prompt for files exported without one), then the
/// user's passphrase; the MAC tells a wrong passphrase apart; legacy RC2/3DES files get OpenSSL's
/// legacy provider.
enum PKCS12Reader {
    static func read(_ bundle: PKCS12Bundle, path: String,
                     passphrase: PassphraseSource) throws(CredentialProblem) -> CredentialLoader.Parsed {
        var secret: SecretBytes? = nil
        if bundle.hasMAC {
            if !bundle.verifyMAC(nil) {
                guard let given = try passphrase.resolve(forFile: path) else { throw .passphraseRequired(path: path) }
                guard bundle.verifyMAC(given) else { throw .wrongPassphrase(path: path) }
                secret = given
            }
        } else if let given = try passphrase.resolve(forFile: path) {
            secret = given
        }
        // Keychain exports use RC2-40, which OpenSSL 3 keeps in the legacy provider; a missing
        // legacy.so only matters if the file really needs it, so a failure here is reported below.
        let providerFailure: OpenSSLError?
        do { try OpenSSLProviders.loadLegacy(); providerFailure = nil } catch { providerFailure = error }
        let parsed: (key: PrivateKey?, certificates: [X509Certificate])
        do { parsed = try bundle.parse(secret) } catch {
            if error.mentions("unsupported") {
                let algorithm = error.entries.compactMap(\.data).first ?? "legacy PKCS#12 encryption"
                let why = providerFailure.map { "; \($0.description)" } ?? ""
                throw .unsupportedAlgorithm(path: path, detail: algorithm + why)
            }
            if !bundle.hasMAC { throw .wrongPassphrase(path: path) }
            throw .corrupt(path: path, detail: "the PKCS#12 contents do not decrypt or decode")
        }
        return CredentialLoader.Parsed(certificates: parsed.certificates, key: parsed.key, isPKCS12: true)
    }
}
