import APNSCore
import APNSCrypto

/// What `apnsctl jwt --decode` says about a provider token: its header and claims, when it was signed and when
/// APNs stops taking it, and with a key whether its signature verifies and its `kid` is that key's. Pure: the
/// token, the clock and the key in, lines out; the signature itself is never shown.
struct ProviderTokenReport {
    /// The key to check the token against: its public half, its id (from --key-id or the file name) and its file.
    struct Key {
        let publicKey: PublicKey
        let keyID: String?
        let file: String
    }

    /// The team the token should name (`--team-id`, a variable or a profile): its `iss` is checked against it.
    struct Team {
        let id: String
        let label: String
    }

    let fields: [(name: String, value: String)]
    /// Why APNs would refuse the token (exit 77); empty when it would take it.
    let refusals: [String]
    /// Worth saying, not a refusal (a token dated a little ahead, say).
    let warnings: [String]
    let json: String

    /// `text` as given: `bearer …` and `authorization: bearer …` are accepted, blanks trimmed.
    static func bareToken(_ text: String) -> String {
        // "\r\n" is one Character in Swift, so blanks are told by their scalars; a BOM (a file saved by Notepad)
        // and a no-break space (a web page's, a chat's) are blank too.
        let blank: (Character) -> Bool = {
            $0.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
        }
        var t = Substring(text).drop(while: blank)
        while let last = t.last, blank(last) { t = t.dropLast() }
        if t.lowercased().hasPrefix("authorization:") { t = t.dropFirst("authorization:".count).drop { $0 == " " } }
        if t.lowercased().hasPrefix("bearer ") { t = t.dropFirst("bearer ".count).drop { $0 == " " } }
        return String(t)
    }

    /// A header or claims part's fault: one not JSON was cut or mangled in the copy; JSON that is no object, or
    /// names a key twice, was made so by whatever signed it (which copy of a key counts, verifiers disagree).
    private static func said(_ fault: ProviderToken.Parts.PartFault, part: String, plural: Bool) -> String {
        let (are, have) = plural ? ("are", "have") : ("is", "has")
        switch fault {
        case .notJSON: return "\(part) \(are) not base64url-encoded JSON; copy the whole token"
        case .notAnObject: return "\(part) \(are) JSON but not an object ({…}); whatever made the token made it wrong"
        case .duplicateKey(let key):
            return "\(part) \(have) the key \(PrintableText.quoted(key)) twice, which no verifier should guess "
                + "between; whatever made the token made it wrong"
        }
    }

    /// Why `token` does not decode, naming what is wrong where: a token is pasted with quotes or a label around it,
    /// wrapped over two lines, twice, cut short, or in standard base64.
    private static func damage(in token: String) -> String {
        let scalars = Array(token.unicodeScalars)
        if scalars.contains(where: { $0.properties.isWhitespace }) {
            return "it has a blank or a line break inside (a token wrapped over two lines, two tokens, or a label "
                + "pasted with it?); give the token alone, on one line"
        }
        // `=` at a part's end is padding, which `Base64URL.decode` takes; before it, a label (`TOKEN=eyJ…`).
        let padding: (Int) -> Bool = { i in scalars[i...].prefix { $0 != "." }.allSatisfy { $0 == "=" } }
        if let index = scalars.indices.first(where: { i in
            let c = scalars[i]
            return !Base64URL.isInAlphabet(c) && c != "." && !(c == "=" && padding(i))
        }) {
            let scalar = scalars[index]
            if scalar == "+" || scalar == "/" {
                return "it has \(BundleIDShape.describe(scalar)): standard base64, where a JWT's parts are base64url "
                    + "(- and _ for + and /); encode it as base64url"
            }
            return
                "it has \(BundleIDShape.describe(scalar)) at character \(index + 1), which no JWT has (quotes, a label "
                + "or a character pasted with it?); give the token alone"
        }
        let split = token.split(separator: ".", omittingEmptySubsequences: false)
        guard split.count == 3 else {
            let why =
                split.count == 4 && split[3].isEmpty
                ? " (a dot after the token, as at a sentence's end?)"
                : split.count < 3 ? " (cut short?)" : split.count == 5 ? " (two tokens pasted together?)" : ""
            return
                "\(split.count) part\(split.count == 1 ? "" : "s") separated by dots, where a JWT has three (header.claims.signature)\(why)"
        }
        switch ProviderToken.Parts.damage(in: token) {
        case .header(let fault)?: return Self.said(fault, part: "its header (before the first dot)", plural: false)
        case .claims(let fault)?: return Self.said(fault, part: "its claims (between the dots)", plural: true)
        case .signature? where split[2].isEmpty:
            return "the signature part is empty (the token ends with a dot); copy the whole token"
        case .signature?, nil:
            let count = split[2].count
            let why = count < 86 ? "cut short" : "with something after it"
            return
                "its signature (after the last dot) is \(count) characters, where an ES256 signature has 86 (\(why)?); copy the whole token"
        }
    }

    init(token text: String, now: Int64, key: Key?, team: Team? = nil) {
        let token = Self.bareToken(text)
        var fields: [(String, String)] = []
        var refusals: [String] = []
        var warnings: [String] = []
        var w = JSONWriter()
        w.beginObject()
        guard let parts = ProviderToken.Parts(token) else {
            refusals.append("not a provider token: " + Self.damage(in: token))
            // Every key a decoded token's object has, null: a script reads `.kid` or `.iat` the same way on both.
            for name in [
                "alg", "kid", "iss", "iat", "issued_at", "age_seconds", "expires_at", "signature", "kid_matches",
            ] {
                w.key(name)
                w.null()
            }
            w.field("accepted", false)
            w.key("problems")
            w.beginArray()
            for r in refusals { w.string(r) }
            w.endArray()
            w.endObject()
            (self.fields, self.refusals, self.warnings, json) = (
                [], refusals, [], String(decoding: w.bytes, as: UTF8.self)
            )
            return
        }
        /// `wrongType`: what the value is when it is there but no string (`number 1234567890`), said as that.
        func optional(_ name: String, _ value: String?, wrongType: String? = nil) {
            fields.append((name, value ?? wrongType.map { "(\($0), not a string)" } ?? "(missing)"))
            w.key(name)
            if let value { w.string(value) } else { w.null() }
        }
        optional("alg", parts.algorithm)
        optional("kid", parts.keyID, wrongType: parts.keyIDOfWrongType)
        optional("iss", parts.issuer, wrongType: parts.issuerOfWrongType)
        if parts.algorithm != "ES256" {
            refusals.append(
                "alg is \(parts.algorithm.map { PrintableText.quoted($0) } ?? "missing"); APNs takes only ES256 (InvalidProviderToken)"
            )
        }
        /// `kid is a number 1234567890, not a string: write the key id in quotes`; `iss is null, …`.
        func wrongType(_ name: String, _ found: String, _ id: String) -> String {
            let quotable = found.hasPrefix("number") || found.hasPrefix("boolean")
            let what =
                found == "null"
                ? "null" : found.hasPrefix("array") || found.hasPrefix("object") ? "an \(found)" : "a \(found)"
            return "\(name) is \(what), not a string: write the \(id) " + (quotable ? "in quotes" : "as a string")
                + " (InvalidProviderToken)"
        }
        if parts.keyID == nil {
            refusals.append(
                parts.keyIDOfWrongType.map { wrongType("kid", $0, "key id") }
                    ?? "the header has no kid (InvalidProviderToken)")
        }
        if parts.issuer == nil {
            refusals.append(
                parts.issuerOfWrongType.map { wrongType("iss", $0, "team id") }
                    ?? "the claims have no iss, the team id (InvalidProviderToken)")
        }
        // What signing refuses, refused here too: ids that are no Apple ids, and the two swapped.
        if let kid = parts.keyID, !DeveloperID.isWellFormed(kid) {
            refusals.append(
                "kid \(PrintableText.quoted(kid)) is not a key id (10 characters A-Z and 0-9) (InvalidProviderToken)")
        }
        if let issuer = parts.issuer, !DeveloperID.isWellFormed(issuer) {
            refusals.append(
                "iss \(PrintableText.quoted(issuer)) is not a team id (10 characters A-Z and 0-9) (InvalidProviderToken)"
            )
        }
        if let kid = parts.keyID, let issuer = parts.issuer, kid == issuer, DeveloperID.isWellFormed(kid) {
            refusals.append(
                "iss is the key's id \(kid), not a team id: the two look swapped; sign with the team id as iss (InvalidProviderToken)"
            )
        }
        if let team, let issuer = parts.issuer, issuer == team.id, let i = fields.firstIndex(where: { $0.0 == "iss" }) {
            // Checked and found right: said, so a match is not mistaken for no check.
            fields[i].1 = "\(issuer) (the team id \(team.label) gives)"
        }
        if let team, let issuer = parts.issuer, issuer != team.id {
            // A key belongs to one team: a token naming another is refused, whoever signed it.
            refusals.append(
                "iss \(PrintableText.quoted(issuer)) is not the team id \(team.id) given by \(team.label): APNs refuses a token naming a team that does not own its key (InvalidProviderToken); the team id is under Membership details in the developer account"
            )
        }
        w.key("iat")
        if let iat = parts.issuedAt {
            w.number(Int(iat))
            let age = now - iat
            let expires = iat + 3600
            fields.append(("iat", "\(iat) (\(ISO8601.format(epochSeconds: iat)), \(Self.relative(-age)))"))
            fields.append(
                (
                    "expires",
                    "\(ISO8601.format(epochSeconds: expires)) (one hour after iat; \(Self.relative(expires - now)))"
                ))
            w.field("issued_at", ISO8601.format(epochSeconds: iat))
            w.field("age_seconds", Int(age))
            w.field("expires_at", ISO8601.format(epochSeconds: expires))
            if age > 3600 {
                refusals.append(
                    "expired: signed \(Self.relative(-age)), and APNs takes a token for one hour (ExpiredProviderToken); sign a new one with apnsctl jwt, and if it was just signed, check the signer's clock"
                )
            } else if age < -3600, iat / 1000 > now - 86_400 * 365, iat / 1000 < now + 86_400 * 365 {
                // JavaScript's Date.now() (and some samples) give milliseconds: a date thousands of years away.
                refusals.append(
                    "iat \(iat) is in milliseconds (\(ISO8601.format(epochSeconds: iat / 1000)) in seconds); APNs reads seconds since 1970, so it is a date \(Self.relative(-age)): sign with seconds (Math.floor(Date.now() / 1000))"
                )
            } else if age < -3600 {
                refusals.append(
                    "dated \(Self.relative(-age)): more than an hour ahead of this clock, which APNs refuses; check the signer's clock (and this one's)"
                )
            } else if age < -60 {
                warnings.append(
                    "dated \(Self.relative(-age)): the signer's clock is ahead of this one (or this one behind); check both"
                )
            }
        } else {
            w.null()
            for name in ["issued_at", "age_seconds", "expires_at"] {
                w.key(name)
                w.null()
            }
            fields.append(("iat", "(missing, or not a date: seconds since 1970)"))
            refusals.append("the claims have no iat that is a date, in seconds since 1970 (InvalidProviderToken)")
        }
        // An ES256 signature is r and s, 32 bytes each, or DER (SEQUENCE of two INTEGERs, ~70 bytes), which pushy and
        // openssl make and APNs accepts (APNS.md §6): any other length verifies with no key.
        let sig = parts.signature
        let isDER =
            sig.count != 64 && sig.count >= 8 && sig[0] == 0x30 && Int(sig[1]) == sig.count - 2 && sig[2] == 0x02
        if sig.count != 64 && !isDER {
            refusals.append(
                "the signature is \(sig.count) bytes where an ES256 signature is 64: the token was cut short or altered (InvalidProviderToken)"
            )
        }
        w.key("signature")
        if let key {
            let verified = parts.signatureVerifies(with: key.publicKey)
            w.string(verified ? "verified" : "does not verify")
            var line = verified ? "verified with \(key.file)" : "does not verify with \(key.file)"
            if isDER { line += " (a DER signature, as pushy and openssl make; APNs accepts it)" }
            // A signature of the wrong length was refused above: not another key's, but no signature at all.
            if !verified && (sig.count == 64 || isDER) {
                refusals.append(
                    "the signature does not verify with \(key.file): the token was signed by another key (InvalidProviderToken)"
                )
            }
            w.key("kid_matches")
            if let id = key.keyID, let kid = parts.keyID {
                w.bool(id == kid)
                line += id == kid ? "; kid is its id" : "; kid \(kid) is not its id \(id)"
                if id != kid {
                    // Signed by this key under another id: sign again with its id. Not signed by it: the token names
                    // the key that signed it, which is the one to check with.
                    refusals.append(
                        verified
                            ? "kid \(kid) is not the key's id \(id) (InvalidProviderToken); sign with --key-id \(id)"
                            : "kid \(kid) is not the key's id \(id): the token names key \(kid); check it with that key (--auth-key AuthKey_\(kid).p8)"
                    )
                }
            } else {
                w.null()
            }
            fields.append(("signature", line))
        } else {
            w.null()
            w.key("kid_matches")
            w.null()
            fields.append(("signature", "not checked (pass --auth-key FILE to check it)"))
        }
        w.field("accepted", refusals.isEmpty)
        w.key("problems")
        w.beginArray()
        for r in refusals + warnings { w.string(r) }
        w.endArray()
        w.endObject()
        (self.fields, self.refusals, self.warnings, json) = (
            fields, refusals, warnings, String(decoding: w.bytes, as: UTF8.self)
        )
    }

    /// `12 min ago`, `in 48 min`, `3 h 2 min ago`, `now`.
    static func relative(_ seconds: Int64) -> String {
        let magnitude = abs(seconds)
        let text: String
        if magnitude < 60 {
            return magnitude < 5 ? "now" : (seconds < 0 ? "\(magnitude) s ago" : "in \(magnitude) s")
        } else if magnitude < 3600 {
            text = "\(magnitude / 60) min"
        } else if magnitude < 86_400 * 2 {
            text = "\(magnitude / 3600) h \(magnitude % 3600 / 60) min"
        } else {
            text = "\(magnitude / 86_400) days"
        }
        return seconds < 0 ? text + " ago" : "in " + text
    }

    /// The text: one `NAME  VALUE` line per field, aligned.
    var textLines: [String] {
        let width = fields.map(\.name.count).max() ?? 0
        return fields.map { $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.value }
    }
}
