import APNSCore
import APNSPlatform
internal import COpenSSL

/// Reads every credential a developer actually has — PEM (certificate and/or key, PKCS#1, PKCS#8, SEC1,
/// encrypted or not, chains), DER certificates, PKCS#12 modern and legacy, `.p8` keys — detected by
/// content, and turns every failure into a `CredentialProblem` the user can act on.
public enum CredentialLoader {
    /// `--cert FILE [--key FILE]`: a certificate with its matching key, checked for validity at `now`
    /// (nil skips the date check). The passphrase is asked for only when an input is encrypted. Inputs may be in
    /// memory (PEM text from `APNSCTL_CERT`/`APNSCTL_KEY`, never written to disk); messages name each input by
    /// its `name` (`(PEM from APNSCTL_CERT)`), never its content.
    public static func loadIdentity(
        certificate: CredentialInput, key keyInput: CredentialInput?, passphrase: PassphraseSource,
        now: Int64? = SystemClock.now()
    ) throws(CredentialProblem) -> PushIdentity {
        let certificatePath = certificate.name
        let contents = try loadContents(certificate, key: keyInput, passphrase: passphrase)
        guard let leaf = contents.leaf else {
            if isTokenSigningKey(contents, path: certificatePath) {
                throw .tokenSigningKeyNotCertificate(path: certificatePath)
            }
            throw .noCertificate(path: certificatePath)
        }
        guard let key = contents.privateKey else {
            let info = leaf.info
            // A CA, or a server's certificate that no client may use: no key makes either a push certificate.
            let server = info.isTLSServer && !leaf.hasClientAuthUsage
            if (info.isCertificateAuthority || server) && !info.hasApplePushExtensions && !info.isApplePush {
                throw .notAClientCertificate(path: certificatePath, certificate: info)
            }
            throw .noPrivateKey(path: certificatePath)
        }
        guard contents.keyMatches == true else {
            throw .keyDoesNotMatchCertificate(
                certificatePath: certificatePath, keyPath: contents.keyPath ?? certificatePath)
        }
        let identity = PushIdentity(
            certificate: leaf, privateKey: key, chain: contents.certificateChain,
            certificatePath: certificatePath, container: contents.kind,
            neededPassphrase: contents.neededPassphrase,
            certificateIsDER: contents.certificateIsDER, keyIsDER: contents.keyIsDER,
            leftOut: contents.otherCertificates.map(\.info))
        if let now { try identity.checkValidity(now: now) }
        return identity
    }

    /// Everything in `input` (and `keyInput`), file or memory, without requiring a key or valid dates: what
    /// `inspect` shows.
    public static func loadContents(
        _ input: CredentialInput, key keyInput: CredentialInput?,
        passphrase: PassphraseSource
    ) throws(CredentialProblem) -> CredentialContents {
        let path = input.name
        let bytes = try read(input)
        var parsed = try parse(bytes, path: path, passphrase: passphrase)
        var keyOrigin: String? = parsed.key == nil ? nil : path
        var keyIsDER = parsed.isDER
        // The certificate the file's own key belongs to (a `.p12`'s, a PEM bundle's): the leaf when `--key` matches
        // only a CA in the file (the CA's key), which is a mismatch, not a new identity. A `--key` for another
        // leaf in it (a renewed certificate beside the old one and its key) picks that leaf, as before.
        let ownLeaf = parsed.key.flatMap { key in matchingLeaf(of: key, in: parsed.certificates) }
        // A `.p8` signing key goes with no certificate: a `--key` beside it is not read (the CLI says so), or the
        // report named the `.p8` and described the other file's key.
        let signingKeyFile =
            parsed.certificates.isEmpty && parsed.key.map { KeyDescription.isP256($0.pointer) } == true
            && (path.lowercased().hasSuffix(".p8") || SigningKey.isNamedAsSigningKey(path))
        if let keyInput, !signingKeyFile {
            let keyPath = keyInput.name
            let keyBytes = try read(keyInput)
            let keyFile = try parse(keyBytes, path: keyPath, passphrase: passphrase)
            guard let key = keyFile.key else {
                if !keyFile.certificates.isEmpty {
                    throw .keyFileHoldsCertificate(
                        path: keyPath, certificatePath: path,
                        swapped: parsed.certificates.isEmpty && parsed.key != nil)
                }
                throw .notACredential(path: keyPath, detail: "no private key found")
            }
            // An Apple `.p8` as the certificate's key: not a mismatch to explain, but a key for --auth-key.
            if keyFile.certificates.isEmpty, !parsed.certificates.isEmpty, KeyDescription.isP256(key.pointer),
                SigningKey.isNamedAsSigningKey(keyPath), !parsed.certificates.contains(where: { key.matches($0) })
            {
                throw .tokenSigningKeyNotCertificate(path: keyPath)
            }
            parsed.key = key
            parsed.neededPassphrase = keyFile.neededPassphrase
            keyIsDER = keyFile.isDER
            keyOrigin = keyPath
        }
        let certs = parsed.certificates
        if certs.isEmpty {
            guard let key = parsed.key else { throw .notACredential(path: path, detail: "no certificate or key found") }
            // No .p8 comes as PKCS#12: a key alone in one is a certificate's key exported without it.
            if parsed.isPKCS12 { throw .keyOnlyPKCS12(path: path) }
            guard KeyDescription.isP256(key.pointer) else {
                // A `.p8` is meant as a signing key: say what is wrong with it, not that a certificate is missing.
                if path.lowercased().hasSuffix(".p8") { throw .notSigningKey(path: path, found: key.typeDescription) }
                throw .noCertificate(path: path)
            }
            return CredentialContents(
                kind: .authKey, leaf: nil, chain: [], privateKey: key, keyPath: keyOrigin, keyMatches: nil,
                neededPassphrase: parsed.neededPassphrase, keyIsDER: keyIsDER)
        }
        var leafIndex = 0
        var matches: Bool? = nil
        let keyLeaf = parsed.key.flatMap { key in matchingLeaf(of: key, in: certs) }
        // The identity the file is for: its own key's certificate, else the one it prefers (a push certificate).
        let fileLeaf = ownLeaf ?? preferredLeaf(certs)
        if let keyLeaf, keyLeaf != fileLeaf, certs[keyLeaf].info.isCertificateAuthority {
            leafIndex = fileLeaf
            matches = false
        } else if parsed.key != nil {
            matches = keyLeaf != nil
            leafIndex = keyLeaf ?? fileLeaf
        } else {
            leafIndex = preferredLeaf(certs)
        }
        var chain = certs
        let leaf = chain.remove(at: leafIndex)
        return CredentialContents(
            kind: parsed.isPKCS12 ? .pkcs12 : .certificate, leaf: leaf, chain: chain,
            privateKey: parsed.key, keyPath: keyOrigin, keyMatches: matches,
            neededPassphrase: parsed.neededPassphrase, certificateIsDER: parsed.isDER, keyIsDER: keyIsDER)
    }

    /// Whether `contents` is a lone EC P-256 key from a file named as Apple names `.p8` keys: a provider-token
    /// signing key, which belongs in `--auth-key` (a TLS server's key or a certificate's own key, also lone
    /// P-256 keys, are named otherwise).
    public static func isTokenSigningKey(_ contents: CredentialContents, path: String) -> Bool {
        contents.kind == .authKey && contents.leaf == nil && SigningKey.isNamedAsSigningKey(path)
    }

    /// An EC P-256 PKCS#8 key (`AuthKey_<KEYID>.p8`) from bytes already read (through `PrivateDirectory`); `path`
    /// names the key's file (and gives its key id). `--auth-key` reads through `SigningKeyFile`.
    public static func loadSigningKey(bytes: [UInt8], path: String) throws(CredentialProblem) -> SigningKey {
        try loadSigningKey(bytes: bytes, name: path, keyIDFromFileName: SigningKey.keyID(fromFileName: path))
    }

    static func loadSigningKey(
        bytes: [UInt8], name path: String,
        keyIDFromFileName: String?
    ) throws(CredentialProblem) -> SigningKey {
        // A .p12 is recognised by its structure before anything asks for its passphrase: it belongs in --cert,
        // unless it shows that it holds a key alone.
        if let found = pkcs12Found(bytes) { throw .notSigningKey(path: path, found: found) }
        OpenSSLError.clearQueue()
        let parsed: Parsed
        do { parsed = try parse(bytes, path: path, passphrase: .none) } catch {
            if case .passphraseRequired = error { throw signingKeyProblem(needingAPassphrase: bytes, path: path) }
            // The .p8's public half (what `openssl pkey -pubout` writes) signs nothing.
            if case .notACredential = error, PEMBlock.scan(bytes).blocks.contains(where: { $0.label == "PUBLIC KEY" }) {
                throw .notSigningKey(path: path, found: CredentialProblem.publicKeyFound)
            }
            throw error
        }
        // A .p8 holds a key and nothing else; a certificate (with or without its key) is a --cert file.
        if !parsed.certificates.isEmpty {
            throw .notSigningKey(path: path, found: parsed.key == nil ? "a certificate" : "a certificate and its key")
        }
        guard let key = parsed.key else { throw .notSigningKey(path: path, found: "no private key") }
        guard KeyDescription.isP256(key.pointer) else { throw .notSigningKey(path: path, found: key.typeDescription) }
        return SigningKey(key: key, keyIDFromFileName: keyIDFromFileName)
    }

    /// A file where a `.p8` key belongs that asks for a passphrase: a PKCS#12 is no key file, and any other is an
    /// encrypted key (Apple's are not encrypted). Nothing that reads a signing key asks for a passphrase.
    static func signingKeyProblem(needingAPassphrase bytes: [UInt8], path: String) -> CredentialProblem {
        pkcs12Found(bytes).map { .notSigningKey(path: path, found: $0) } ?? .encryptedSigningKey(path: path)
    }

    /// What a PKCS#12 is, said as `notSigningKey`'s `found`, told without its passphrase; nil when `bytes` are none.
    static func pkcs12Found(_ bytes: [UInt8]) -> String? {
        pkcs12(bytes).map { $0.visiblyHoldsOnlyAKey ? CredentialProblem.keyOnlyPKCS12Found : "a PKCS#12 (.p12) file" }
    }

    /// Whether `bytes` hold a private key, told without a passphrase: a PKCS#12, or PEM with a private-key block
    /// (encrypted or not), and whether that PEM has a certificate beside it. `convert -` refuses a terminal for
    /// such bytes before it asks for their passphrase.
    public static func holdsPrivateKey(_ bytes: [UInt8]) -> (pkcs12: Bool, pemKey: Bool, pemCertificate: Bool) {
        if PEMBlock.looksLikePEM(bytes) {
            let blocks = PEMBlock.scan(bytes).blocks
            return (
                false, blocks.contains { $0.label.hasSuffix("PRIVATE KEY") },
                blocks.contains { $0.label == "CERTIFICATE" }
            )
        }
        return (isPKCS12(bytes), false, false)
    }

    /// What `bytes` hold when they are a credential, told by content alone (no passphrase asked): PEM text, a
    /// PKCS#12 or a DER certificate; nil for anything else. For bytes given where something else goes (a file
    /// named `x.mobileprovision`, a key piped where a token goes).
    public static func credentialKind(of bytes: [UInt8]) -> String? {
        if PEMBlock.looksLikePEM(bytes) { return "PEM text (a key or certificate)" }
        if isPKCS12(bytes) { return "a PKCS#12 (.p12) file" }
        if bytes.first == DER.Tag.sequence, (try? X509Certificate(der: bytes)) != nil { return "a DER certificate" }
        return nil
    }

    /// Whether `bytes` are a PKCS#12 (DER; PEM never is), told by its structure without its passphrase.
    static func isPKCS12(_ bytes: [UInt8]) -> Bool { pkcs12(bytes) != nil }

    /// `bytes` as a PKCS#12 structure (unopened), nil when they are none.
    private static func pkcs12(_ bytes: [UInt8]) -> PKCS12Bundle? {
        guard !PEMBlock.looksLikePEM(bytes), bytes.first == DER.Tag.sequence else { return nil }
        return try? PKCS12Bundle(der: bytes)
    }

    // MARK: - Parsing by content

    /// Certificates and at most one key found in one file.
    struct Parsed {
        var certificates: [X509Certificate] = []
        var key: PrivateKey?
        var isPKCS12 = false
        /// The file opened only with a passphrase: an encrypted PEM key, a PKCS#12 whose password is not empty.
        var neededPassphrase = false
        /// The file was a bare DER certificate or key (other tools, such as curl, must be told).
        var isDER = false
    }

    /// The bytes of `input`, as loading reads them: an empty or blank one is `.empty`. Public for `inspect -`, which
    /// looks at what standard input holds (a credential or a provisioning profile) before loading it.
    public static func read(_ input: CredentialInput) throws(CredentialProblem) -> [UInt8] {
        let bytes: [UInt8]
        let path = input.name
        switch input {
        case .file(let p):
            do { bytes = try FileSystem.read(p) } catch { throw CredentialProblem(reading: error) }
        case .standardInput(let fd, let name):
            do { bytes = try FileSystem.read(name, standardInput: fd, unechoed: true) } catch {
                throw CredentialProblem(reading: error)
            }
        case .memory(let b, _):
            bytes = b
        }
        if BlankBytes.areBlank(bytes) {
            throw .empty(path: path)
        }
        return bytes
    }

    static func parse(_ bytes: [UInt8], path: String, passphrase: PassphraseSource) throws(CredentialProblem) -> Parsed
    {
        if PEMBlock.looksLikePEM(bytes) { return try parsePEM(bytes, path: path, passphrase: passphrase) }
        guard bytes.first == DER.Tag.sequence else {
            throw .notACredential(path: path, detail: "neither PEM text nor DER data")
        }
        if let declared = declaredDERLength(bytes), declared > bytes.count {
            throw .corrupt(path: path, detail: "truncated: \(bytes.count) of \(declared) bytes")
        }
        if let bundle = try? PKCS12Bundle(der: bytes) {
            return try PKCS12Reader.read(bundle, path: path, passphrase: passphrase)
        }
        if let cert = try? X509Certificate(der: bytes) { return Parsed(certificates: [cert], isDER: true) }
        if let key = try? PrivateKey(der: bytes) { return Parsed(key: key, isDER: true) }
        OpenSSLError.clearQueue()
        // An encrypted PKCS#8 key in DER: read as its PEM form is, with the passphrase and the same bounds.
        if let pem = PrivateKey.encryptedPKCS8PEM(der: bytes) {
            let key = try readKey(
                PEMBlock(label: "ENCRYPTED PRIVATE KEY", text: pem), path: path, passphrase: passphrase)
            var parsed = Parsed(key: key, isDER: true)
            parsed.neededPassphrase = true
            return parsed
        }
        throw .corrupt(path: path, detail: "DER data that is not a certificate, key or PKCS#12 structure")
    }

    /// The total length the outer DER header announces (to tell a truncated file from a damaged one).
    private static func declaredDERLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let first = Int(bytes[1])
        if first < 0x80 { return 2 + first }
        let count = first & 0x7F
        guard count >= 1, count <= 4, bytes.count >= 2 + count else { return nil }
        var length = 0
        for i in 0..<count { length = (length << 8) | Int(bytes[2 + i]) }
        return 2 + count + length
    }

    private static func parsePEM(_ bytes: [UInt8], path: String, passphrase: PassphraseSource) throws(CredentialProblem)
        -> Parsed
    {
        let (blocks, truncated) = PEMBlock.scan(bytes)
        if let truncated, !blocks.contains(where: { $0.isCertificate || $0.isPrivateKey }) {
            throw .corrupt(path: path, detail: "the \(truncated) block has no END line")
        }
        var result = Parsed()
        for (n, block) in blocks.enumerated() where block.isCertificate {
            guard let cert = try? X509Certificate.all(pem: block.text).first else {
                OpenSSLError.clearQueue()
                throw .corrupt(
                    path: path, detail: "PEM block \(n + 1) (\(block.label)) does not decode to a certificate")
            }
            result.certificates.append(cert)
        }
        // Several keys (an old one kept beside the renewed certificate and its key): the one a certificate of the
        // file belongs to, tried among the unencrypted ones first (no prompt for a key that is not the one), else
        // the first, as before, whose mismatch is then said.
        let keyBlocks = blocks.filter(\.isPrivateKey)
        // A self-signed certificate made with `openssl req -x509` says it is a CA: with no other, it is the leaf.
        let nonCA = result.certificates.filter { !$0.info.isCertificateAuthority }
        let leaves = nonCA.isEmpty ? result.certificates : nonCA
        if keyBlocks.count > 1, !leaves.isEmpty {
            for block in keyBlocks where !block.isEncrypted {
                guard let key = try? readKey(block, path: path, passphrase: passphrase) else {
                    OpenSSLError.clearQueue()
                    continue
                }
                if leaves.contains(where: { key.matches($0) }) {
                    result.key = key
                    break
                }
            }
        }
        if result.key == nil, let block = keyBlocks.first {
            result.key = try readKey(block, path: path, passphrase: passphrase)
            result.neededPassphrase = block.isEncrypted
        }
        if result.certificates.isEmpty && result.key == nil {
            if let truncated { throw .corrupt(path: path, detail: "the \(truncated) block has no END line") }
            let labels = blocks.map(\.label)
            throw .notACredential(
                path: path,
                detail: labels.isEmpty ? "no PEM blocks" : "PEM holds only " + labels.joined(separator: ", "))
        }
        return result
    }

    private static func readKey(_ block: PEMBlock, path: String, passphrase: PassphraseSource) throws(CredentialProblem)
        -> PrivateKey
    {
        guard block.isEncrypted else {
            do { return try PrivateKey(pem: block.text, secret: nil) } catch {
                throw .corrupt(path: path, detail: "the \(block.label) block does not decode to a key")
            }
        }
        // PKCS#8 encryption names its key derivation (PBKDF2 or scrypt) and its cost; checked before the
        // passphrase is asked for. Traditional encrypted PEM (`Proc-Type`) derives with one MD5 round: no cost.
        if block.label == "ENCRYPTED PRIVATE KEY", let excess = KeyDerivation.excess(encryptedPKCS8PEM: block.text) {
            throw .excessiveKeyDerivation(path: path, excess, inPKCS12: false)
        }
        return try passphrase.withPassphrase(forFile: path) { secret throws(CredentialProblem) -> PrivateKey? in
            do throws(OpenSSLError) { return try PrivateKey(pem: block.text, secret: secret) } catch {
                guard let unsupported = error.unsupportedAlgorithm else { return nil }
                // RC2 and DES (PKCS#8 keys from older tools) are in OpenSSL 3's legacy provider, loaded as for
                // `.p12` files only when a file needs it; then the same passphrase is tried once more.
                do throws(OpenSSLError) { try OpenSSLProviders.loadLegacy() } catch {
                    throw .unsupportedAlgorithm(
                        path: path, detail: (unsupported.data ?? "key encryption") + "; \(error.description)")
                }
                do throws(OpenSSLError) { return try PrivateKey(pem: block.text, secret: secret) } catch {
                    if let still = error.unsupportedAlgorithm {
                        throw .unsupportedAlgorithm(path: path, detail: still.data ?? "key encryption")
                    }
                    return nil
                }
            }
        }
    }

    /// The certificate `key` belongs to; of several (a renewal from the same request beside the expired one, in one
    /// Keychain export or one PEM), an Apple push certificate that is no CA before a self-signed copy made from the
    /// key, and of those the one that lasts longest, whatever their order (the first of equals).
    private static func matchingLeaf(of key: PrivateKey, in certs: [X509Certificate]) -> Int? {
        let matching = certs.indices.filter { key.matches(certs[$0]) }
        let rank: (Int) -> (Int, Int64) = { i in
            let info = certs[i].info
            return ((info.isCertificateAuthority ? 0 : 2) + (info.isApplePush ? 1 : 0), info.notAfter)
        }
        return matching.max { rank($0) < rank($1) }
    }

    /// The certificate shown when no key decides: the first Apple push certificate, else the first
    /// certificate that issued no other one in the file (a leaf), else the first.
    private static func preferredLeaf(_ certs: [X509Certificate]) -> Int {
        if let i = certs.firstIndex(where: { $0.info.isApplePush }) { return i }
        if let i = certs.firstIndex(where: { c in !certs.contains { $0 !== c && $0.isSigned(by: c) } }) { return i }
        return 0
    }
}
