import APNSCore
internal import COpenSSL

/// Opens a `.p12`/`.pfx`: empty password first (no prompt for files exported without one), then the
/// user's passphrase; the MAC tells a wrong passphrase apart; legacy RC2/3DES files get OpenSSL's
/// legacy provider. A file asking for a key derivation out of bounds (`ExcessiveKeyDerivation`) is refused first.
enum PKCS12Reader {
    static func read(
        _ bundle: PKCS12Bundle, path: String,
        passphrase: PassphraseSource
    ) throws(CredentialProblem) -> CredentialLoader.Parsed {
        // Before the first derivation (even the empty-password MAC check) and before any prompt: the parameters
        // are read from the structure.
        if let excess = bundle.excessiveKeyDerivation {
            throw .excessiveKeyDerivation(path: path, excess, inPKCS12: true)
        }
        // Keychain exports use RC2-40, which OpenSSL 3 keeps in the legacy provider; a missing
        // legacy.so only matters if the file really needs it, so a failure here is reported below.
        let providerFailure: OpenSSLError?
        do {
            try OpenSSLProviders.loadLegacy()
            providerFailure = nil
        } catch { providerFailure = error }
        if !bundle.hasMAC { return try readWithoutMAC(bundle, path: path, passphrase: passphrase, providerFailure) }
        var secret: SecretBytes? = nil
        if !bundle.verifyMAC(nil) {
            secret = try passphrase.withPassphrase(forFile: path) { given in bundle.verifyMAC(given) ? given : nil }
        }
        return try decrypt(bundle, secret, path: path, providerFailure) { () throws(CredentialProblem) in
            throw .corrupt(path: path, detail: "the PKCS#12 contents do not decrypt or decode")
        }
    }

    /// A file without a MAC (`-nomac`): only decryption tells whether the password is right.
    private static func readWithoutMAC(
        _ bundle: PKCS12Bundle, path: String, passphrase: PassphraseSource,
        _ providerFailure: OpenSSLError?
    ) throws(CredentialProblem) -> CredentialLoader.Parsed {
        if let parsed = try? bundle.parse(nil), parsed.key != nil || !parsed.certificates.isEmpty {
            return CredentialLoader.Parsed(certificates: parsed.certificates, key: parsed.key, isPKCS12: true)
        }
        OpenSSLError.clearQueue()
        guard let given = try passphrase.resolve(forFile: path) else { throw .passphraseRequired(path: path) }
        guard bundle.addMAC(given) else { throw .corrupt(path: path, detail: "the PKCS#12 structure cannot be read") }
        return try decrypt(bundle, given, path: path, providerFailure) { () throws(CredentialProblem) in
            throw .wrongPassphrase(path: path)
        }
    }

    /// Decrypts the bags; `otherwise` decides what a non-algorithm failure means.
    private static func decrypt(
        _ bundle: PKCS12Bundle, _ secret: SecretBytes?, path: String, _ providerFailure: OpenSSLError?,
        otherwise: () throws(CredentialProblem) -> Never
    ) throws(CredentialProblem) -> CredentialLoader.Parsed {
        // A key bag inside an encrypted safe shows its parameters only once that safe is open.
        if let excess = bundle.excessiveNestedKeyDerivation(secret) {
            throw .excessiveKeyDerivation(path: path, excess, inPKCS12: true)
        }
        let parsed: (key: PrivateKey?, certificates: [X509Certificate])
        do { parsed = try bundle.parse(secret) } catch {
            if let unsupported = error.unsupportedAlgorithm {
                let algorithm = unsupported.data ?? "legacy PKCS#12 encryption"
                let why = providerFailure.map { "; \($0.description)" } ?? ""
                throw .unsupportedAlgorithm(path: path, detail: algorithm + why)
            }
            try otherwise()
        }
        return CredentialLoader.Parsed(
            certificates: parsed.certificates, key: parsed.key, isPKCS12: true, neededPassphrase: secret != nil)
    }
}

/// Whether a `.p12` needs OpenSSL 3's legacy provider, which tools such as curl do not load: RC2 and RC4
/// (the PKCS#12 PBE algorithms `1.2.840.113549.1.12.1.1/.2/.5/.6`, RC2-40 being what Keychain Access
/// exports). Found by the algorithm identifiers' DER encoding in the file; inside ciphertext an 11-byte
/// match by chance is out of reach. 3DES (`.3`) stays in OpenSSL 3's default provider.
public enum PKCS12LegacyCiphers {
    private static let pbeOID: [UInt8] = [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]
    private static let legacy: Set<UInt8> = [0x01, 0x02, 0x05, 0x06]

    /// True when `bytes` (a PKCS#12 file) encrypts anything with RC2 or RC4.
    public static func used(in bytes: [UInt8]) -> Bool {
        let n = pbeOID.count
        guard bytes.count > n else { return false }
        var i = 0
        while i + n < bytes.count {
            if bytes[i] == 0x06, bytes[i..<(i + n)].elementsEqual(pbeOID), legacy.contains(bytes[i + n]) { return true }
            i += 1
        }
        return false
    }
}
