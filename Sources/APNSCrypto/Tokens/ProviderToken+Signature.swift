extension ProviderToken.Parts {
    /// Whether the signature verifies with `key`: raw `r||s` as apnsctl signs, or DER as pushy and Apple's
    /// openssl recipe produce.
    public func signatureVerifies(with key: PublicKey) -> Bool {
        let der: [UInt8]?
        if signature.count == 64 {
            der = ECDSASignature.der(fromRaw: signature)
        } else {
            der = signature.first == DER.Tag.sequence ? signature : nil
        }
        guard let der else { return false }
        return key.verifySHA256(signatureDER: der, message: signingInput)
    }
}
