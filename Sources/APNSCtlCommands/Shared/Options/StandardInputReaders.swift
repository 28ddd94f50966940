import APNSPlatform
import APNSSettings

/// What reads standard input in one run (`PAYLOAD -`, `--devices -`, `--passphrase-file -`, `@-`, a file argument
/// `-`): one reader at most, refused (64) before anything is read, as the first would take the other's bytes (a
/// passphrase read as a device token and quoted, a `.p12` given an empty password).
enum StandardInputReaders {
    /// `label value` when `value` names standard input (`FileSystem.namesStandardInput`), for `check`.
    static func reader(_ label: String, _ value: String?) -> String? {
        value.flatMap { FileSystem.namesStandardInput($0) ? "\(label) \($0)" : nil }
    }

    /// The same for a setting, named as `ResolvedSettings.label` names it: a flag as `--cert -`, a variable or a
    /// profile's key as `APNSCTL_CERT (-)`.
    static func setting(_ label: String, _ value: String?) -> String? {
        guard let value, FileSystem.namesStandardInput(value) else { return nil }
        return label.hasPrefix("-") ? "\(label) \(value)" : "\(label) (\(value))"
    }

    /// Throws 64 naming them when more than one of `readers` is given.
    static func check(_ readers: [String]) throws(CLIError) {
        guard readers.count > 1 else { return }
        if readers == ["PAYLOAD -", "--devices -"] {
            throw .usage("PAYLOAD - and --devices - both read standard input; put the payload or the tokens in a file")
        }
        let both = readers.count == 2
        let passphrase = readers.contains { $0.contains("passphrase") }
        throw .usage(
            "\(readers.joined(separator: " and ")) \(both ? "both" : "all") read standard input; put "
                + (both ? "one of them in a file" : "all but one of them in files")
                + (passphrase ? " (a passphrase file's first line is read)" : ""))
    }
}

extension ResolvedSettings {
    /// The settings that read standard input, as the user gave them (`--cert -`, `APNSCTL_PASSPHRASE_FILE (-)`): a
    /// passphrase file, a certificate, its key or a `.p8` key of `-`. Beside another reader, the first one read took
    /// the bytes, and the other was called an empty file to export again, or a wrong passphrase.
    var standardInputReaders: [String] {
        let given: [(value: String?, label: String)] = [
            (self[.passphraseFile]?.value, label(.passphraseFile)), (self[.cert]?.value.path, label(.cert)),
            (self[.key]?.value.path, label(.key)), (self[.authKey]?.value.path, label(.authKey)),
            // `-` is refused for it; /dev/stdin is read by its path, and takes standard input as the others would.
            (self[.caFile]?.value, label(.caFile)),
        ]
        return given.compactMap { StandardInputReaders.setting($0.label, $0.value) }
    }
}
