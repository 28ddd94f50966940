import APNSPlatform
internal import COpenSSL

/// Where the system trust store is read from, decided before any certificate is parsed: the hashed
/// certificate directory is searched lazily (the handshake reads only the CA it needs, by subject hash),
/// so a send costs no more than `--ca-file` with one CA. Parsing the whole bundle (about 140 certificates,
/// 15–20 ms) happens only where it must: `SSL_CERT_FILE` names it (OpenSSL and curl load it whole too),
/// or no directory in use holds hashed names (systems that ship only a bundle), so trust never shrinks.
public struct SystemTrust: Sendable, Equatable {
    /// A bundle read whole, and which variable named it (nil: OpenSSL's default bundle).
    public var file: String?
    public var fileVariable: String?
    /// Directories searched by subject hash (`openssl rehash` names).
    public var directories: [String]
    /// Whether the directories come from `SSL_CERT_DIR` rather than OpenSSL's default.
    public var directoriesFromVariable: Bool

    /// The plan for this environment and these OpenSSL defaults. `hasHashedNames` says whether a
    /// directory holds at least one hashed certificate name; injected so every combination is a unit test.
    public static func plan(
        certFile: String?, certDir: String?, defaultFile: String, defaultDir: String,
        hasHashedNames: (String) -> Bool
    ) -> SystemTrust {
        // An empty variable counts as unset (CLI.md, Settings).
        let fileVariable = certFile.flatMap { $0.isEmpty ? nil : $0 }
        let dirVariable = certDir.flatMap { $0.isEmpty ? nil : $0 }
        let directories = (dirVariable ?? defaultDir).split(separator: ":").map(String.init).filter { !$0.isEmpty }
        let hashed = directories.contains(where: hasHashedNames)
        return SystemTrust(
            file: fileVariable ?? (hashed ? nil : defaultFile),
            fileVariable: fileVariable == nil ? nil : "SSL_CERT_FILE",
            directories: hashed ? directories : directories.filter(hasHashedNames),
            directoriesFromVariable: dirVariable != nil)
    }

    /// The plan for this process: `SSL_CERT_FILE`, `SSL_CERT_DIR` and OpenSSL's compiled-in defaults.
    public static func current() -> SystemTrust { current(variables: Environment.value) }

    /// The plan for these variables (a command's own, which in the binary are the process's) and OpenSSL's
    /// compiled-in defaults.
    public static func current(variables: (String) -> String?) -> SystemTrust {
        plan(
            certFile: variables(String(cString: X509_get_default_cert_file_env())),
            certDir: variables(String(cString: X509_get_default_cert_dir_env())),
            defaultFile: String(cString: X509_get_default_cert_file()),
            defaultDir: String(cString: X509_get_default_cert_dir()),
            hasHashedNames: FileSystem.holdsHashedCertificateNames)
    }

    /// The store as messages name it: `the system trust store (/etc/ssl/certs)`, `SSL_CERT_DIR=/x`, …
    public var description: String {
        var parts: [String] = []
        if !directories.isEmpty {
            let dirs = directories.joined(separator: ":")
            parts.append(directoriesFromVariable ? "SSL_CERT_DIR=\(dirs)" : "the system trust store (\(dirs))")
        }
        if let file {
            parts.append(fileVariable.map { "\($0)=\(file)" } ?? "the system bundle \(file)")
        }
        return parts.isEmpty ? "the system trust store (empty)" : parts.joined(separator: " and ")
    }

    /// What makes a CA count in this store.
    public var advice: String? {
        guard !directories.isEmpty else { return nil }
        return "a CA counts there only under its hashed name (update-ca-certificates, or openssl rehash DIR)"
    }
}
