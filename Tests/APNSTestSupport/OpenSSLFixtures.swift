import Foundation

/// Certificates made with the `openssl` command at test time: an independent source of credentials
/// for testing TLS without relying on apnsctl's own generator.
public struct OpenSSLFixtures {
    /// Writes a `.p8` signing key (EC P-256, unencrypted PKCS#8) made by `openssl` to `path`, and its public key
    /// (PEM) to `publicKeyPath`: a key apnsctl did not make.
    public static func makeP8Key(at path: String, publicKeyPath: String) throws {
        let made = try CommandRunner.run(
            "sh",
            [
                "-c",
                "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 | openssl pkcs8 -topk8 -nocrypt -out \"$0\"",
                path,
            ])
        guard made.status == 0 else { throw TestSupportError("openssl genpkey: \(made.stderr)") }
        let pub = try CommandRunner.run("openssl", ["pkey", "-in", path, "-pubout", "-out", publicKeyPath])
        guard pub.status == 0 else { throw TestSupportError("openssl pkey -pubout: \(pub.stderr)") }
    }

    /// Writes `pem` (a certificate with its key) as a PKCS#12 file made by `openssl` (modern encryption), protected
    /// by `passphrase`, to `path`: a `.p12` apnsctl did not write.
    public static func exportPKCS12(_ pem: String, to path: String, passphrase: String) throws {
        let made = try CommandRunner.run(
            "openssl", ["pkcs12", "-export", "-in", pem, "-out", path, "-passout", "pass:\(passphrase)"])
        guard made.status == 0 else { throw TestSupportError("openssl pkcs12 -export: \(made.stderr)") }
    }

    public let directory: TemporaryDirectory
    public var caCert: String { directory.file("ca.pem") }
    public var caKey: String { directory.file("ca.key") }
    public var serverCert: String { directory.file("server.pem") }
    public var serverKey: String { directory.file("server.key") }
    public var clientCert: String { directory.file("client.pem") }
    public var clientKey: String { directory.file("client.key") }

    /// A CA, a server certificate for localhost and 127.0.0.1, and a client certificate, all EC P-256.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "tls-fixtures")
        let d = directory.path
        func openssl(_ args: [String]) throws {
            let r = try CommandRunner.run("openssl", args, directory: d)
            guard r.status == 0 else { throw TestSupportError("openssl \(args.joined(separator: " ")): \(r.stderr)") }
        }
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=apnsctl test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        for (name, ext) in [
            ("server", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth"),
            ("client", "extendedKeyUsage=clientAuth"),
        ] {
            try openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", "/CN=\(name)",
            ])
            try "\(ext)\n".write(toFile: "\(d)/\(name).ext", atomically: true, encoding: .utf8)
            try openssl([
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext",
            ])
        }
    }
}
