/// A URL as messages show it: a password in its user info (`https://user:secret@host`) as `***`. The one rule for
/// every URL a message, `-v`, `config show`, `doctor` or `--dry-run` quotes (endpoints and proxies alike).
public enum URLPassword {
    /// `url` with the password of its user info replaced by `***`; a URL without one as it is.
    public static func masked(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        guard start <= at else { return url }
        let info = url[start..<at]
        guard let colon = info.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}
