// The `--devices` fuzz target: each line of any bytes through DeviceToken(parsing:) and (in the package build)
// through the line reader that turns one line of a --devices file into a token, a skip or a bad line.
// scripts/fuzz.sh compiles it with Sources/APNSCore alone (the token parser).
#if canImport(APNSCore)
    import APNSCore
#endif
#if canImport(APNSClient)
    @testable import APNSClient
#endif

/// Shapes users paste tokens in, and the pieces that break them.
let deviceFuzzTokens = [
    "<", ">", " ", "\t", "\n", "{length = 32, bytes = 0x", "{length=32,bytes=0x", "...", "…", "}",
    ":APA91", "=", "==", "+", "/", "#", "0", "f", "F", "g", "00fc13ad ", "ff785122", "\u{FEFF}",
    "\u{1B}[31m", "\u{202E}", "\u{85}", "-----BEGIN PRIVATE KEY-----", "AAECAwQFBgcICQoLDA0ODxA=",
]

/// Checks every line of `bytes` (split at line feeds, as the reader splits a file).
func fuzzDeviceLines(_ bytes: [UInt8]) {
    for (i, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        let line = String(decoding: raw, as: UTF8.self)
        checkDeviceToken(line)
        #if canImport(APNSClient)
            checkDeviceLine(line, number: i + 1)
        #endif
    }
}

/// A token is lowercase hex of whole bytes and reads back as itself; a problem is one line of advice.
func checkDeviceToken(_ text: String) {
    do {
        checkHex(try DeviceToken(parsing: text), from: text)
    } catch {
        fuzzCheck(!error.message.isEmpty, "empty problem message for \(text.debugDescription)")
    }
}

func checkHex(_ token: DeviceToken, from text: String) {
    let hex = token.hex.utf8
    fuzzCheck(
        !hex.isEmpty && hex.count % 2 == 0
            && hex.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) },
        "token \(token.hex.debugDescription) from \(text.debugDescription)")
    fuzzCheck((try? DeviceToken(parsing: token.hex)) == token, "the hex of \(text.debugDescription) does not read back")
}

#if canImport(APNSClient)
    /// One `--devices` line: a bad line names its number and quotes at most 8 characters, control characters escaped.
    func checkDeviceLine(_ raw: String, number: Int) {
        switch DeviceFile.parse(raw, number: number) {
        case .skip, .keyMaterial: break
        case .token(let token): checkHex(token, from: raw)
        case .bad(let unworded):
            let bad = unworded.reported
            fuzzCheck(bad.line == number, "bad line \(bad.line) reported for line \(number)")
            fuzzCheck(!bad.reason.isEmpty, "bad line without a reason")
            fuzzCheck(
                bad.excerpt.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) },
                "raw control character in the excerpt \(bad.excerpt.debugDescription)")
            // Escapes aside (each is several characters for one), at most 8 characters of the line are quoted.
            let quoted = bad.excerpt.hasSuffix("…") ? bad.excerpt.dropLast() : Substring(bad.excerpt)
            fuzzCheck(
                quoted.contains("\\u{") || quoted.count <= 8,
                "more than 8 characters quoted: \(bad.excerpt.debugDescription)")
        }
    }
#endif
