import APNSCore
import Testing

/// The first bytes of a credential file in base64 tell a whole `.p12` or `.cer` from a key's body.
@Suite struct Base64DERKindTests {
    /// Starts of real files, in base64, each long enough for the check (values from `openssl`'s output).
    @Test(arguments: [
        // PKCS#8 PrivateKeyInfo: SEQUENCE, INTEGER 0 (a .p8).
        ("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", Base64DERKind.privateKey),
        // SEC1 EC key: INTEGER 1.
        ("MHcCAQEEIDigNXyQ8CevE5JsJIkQAJTMzBJIQMuQqww4wp8w", .privateKey),
        // EncryptedPrivateKeyInfo: SEQUENCE, SEQUENCE, OID.
        ("MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAj2", .encryptedPrivateKey),
        // PKCS#12: SEQUENCE, INTEGER 3.
        ("MIIKbwIBAzCCCiUGCSqGSIb3DQEHAaCCChYEggoSMIIKDjCC", .pkcs12),
        // Certificate: SEQUENCE, SEQUENCE, [0] version.
        ("MIIDoTCCAomgAwIBAgIUHYySOoUcPYvpFt1/3ZWdSFew2mkw", .certificate),
    ])
    func kinds(_ text: String, _ kind: Base64DERKind) {
        #expect(Base64DERKind(base64: text) == kind)
    }

    @Test(arguments: ["MIInotDERatall0000000000000000000000", "", "MI", "eyJhbGciOiJFUzI1NiJ9"])
    func othersAreNone(_ text: String) {
        #expect(Base64DERKind(base64: text) == nil)
    }
}
