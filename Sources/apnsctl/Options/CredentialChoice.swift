/// CLI.md's rules for the credential flags of every command that connects (`send`, `channel`, `doctor`), in
/// one place so their messages cannot drift apart: exactly one kind of credential, and token auth needs a topic.
enum CredentialChoice {
    /// No credential, or both kinds: 64.
    static func requireOne(certificate: CertificateOptions, tokenAuth: TokenAuthOptions) throws(CLIError) {
        if certificate.cert == nil && !tokenAuth.isGiven {
            throw .usage("no credential; pass --cert FILE (certificate auth) or --auth-key FILE with --team-id (token auth)")
        }
        if certificate.cert != nil && tokenAuth.isGiven {
            // A bearer token on a certificate connection: APNs judges one or the other, never both.
            throw .usage("--cert and --auth-key both given; choose one: certificate auth (--cert) or token auth (--auth-key)")
        }
    }

    /// Token auth without `--topic` (a key knows no bundle id): 64.
    static var topicRequired: CLIError {
        .usage("--topic is required with --auth-key (token auth knows no bundle id); pass --topic with the app's bundle id")
    }
}
