import APNSCore
import APNSPlatform

/// Why a file given as trusted CA certificates could not be loaded, told from what it holds: OpenSSL says
/// "no certificate or crl found" for an empty file, a `.p12`, a DER certificate and a payload alike, and the
/// fix differs for each.
enum CAFileContents {
    /// Enough for any CA bundle a user keeps by hand; a larger file is judged by its start.
    static let readLimit = 1 << 20

    /// The reason to show for `path`, which OpenSSL refused with `openSSL`.
    static func reason(path: String, openSSL: String) -> String {
        if FileSystem.isDirectory(path) { return "it is a folder" }
        // A link whose target is missing (`stat` fails where `lstat` does not); /dev/fd/N of a pipe is no such link.
        if FileSystem.isDanglingLink(path) { return "it is a link to a missing file; check where it points (ls -l)" }
        // /dev/null and its like: what was read is nothing.
        if FileSystem.isCharacterDevice(path) {
            return "it is a device (\(path)), which holds no certificates"
        }
        // A pipe (`<(…)`, /dev/stdin) was drained by OpenSSL: what it gave cannot be looked at again.
        if FileSystem.isFIFO(path) {
            return "what the pipe gave holds no PEM certificate OpenSSL could read: \(openSSL)"
        }
        guard let bytes = FileSystem.readStart(path, count: readLimit) else { return openSSL }
        if let reason = reason(bytes: bytes, path: path) { return reason }
        // No CERTIFICATE block at all, or one OpenSSL could not read (a damaged or cut-off copy).
        let hasCertificate = PEMBlock.scan(bytes).blocks.contains(where: \.isCertificate)
        return hasCertificate
            ? "its CERTIFICATE block is damaged (a changed character, or a copy cut short): \(openSSL)"
            : "it holds no PEM certificate (-----BEGIN CERTIFICATE-----): \(openSSL)"
    }

    /// nil when the bytes give no better reason than OpenSSL's.
    static func reason(bytes: [UInt8], path: String) -> String? {
        if BlankBytes.areBlank(bytes) { return "the file is empty" }
        if PEMBlock.looksLikePEM(bytes) {
            let blocks = PEMBlock.scan(bytes).blocks
            guard !blocks.isEmpty, !blocks.contains(where: \.isCertificate) else { return nil }
            var labels: [String] = []
            for block in blocks where !labels.contains(block.label) { labels.append(block.label) }
            return "it holds no CERTIFICATE block, only \(labels.joined(separator: ", "))"
        }
        if CredentialLoader.isPKCS12(bytes) {
            return
                "it is a PKCS#12 (.p12) bundle: a client identity to authenticate with, not the CA that signed the server"
        }
        if bytes.first == DER.Tag.sequence, (try? X509Certificate(der: bytes)) != nil {
            return
                "it is a DER (binary) certificate, not PEM; convert it with openssl x509 -inform DER -in \(ShellWord.of(path)) -out \(ShellWord.of(pemName(for: path)))"
        }
        if bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "[") {
            return "it looks like JSON, not PEM certificates"
        }
        return nil
    }

    /// Where the converted PEM goes: beside the DER file and named after it (`certs/ca.cer` → `certs/ca.pem`), or
    /// `….converted.pem` when that name is taken (a `ca.pem` holding DER, a PEM copy already there).
    static func pemName(for path: String) -> String {
        let base = FileSystem.baseName(path)
        let folder = path.hasSuffix(base) ? String(path.dropLast(base.count)) : ""
        let named = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        let stem = named.isEmpty ? "ca" : named
        let plain = folder + stem + ".pem"
        return plain != path && !FileSystem.exists(plain) ? plain : folder + stem + ".converted.pem"
    }
}
