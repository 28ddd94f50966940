import Foundation

/// The links and repository paths a page names, checked against the tree: every `](target)` (code blocks
/// included) is an `http(s)` URL, an anchor of the page, or an existing relative path (with an anchor of
/// that page); every repository path in backticks (`Sources/…`, `Tests/…`, `scripts/…`, `Payloads/…`,
/// `docs/…`) exists.
public enum DocLinkCheck {
    /// The problems of `page` (a path relative to `root`), each naming its line.
    public static func problems(page: String, root: String) throws -> [String] {
        let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
        let directory = (page as NSString).deletingLastPathComponent
        var problems: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]*)\)"#)
        let path = try NSRegularExpression(pattern: #"`((?:Sources|Tests|scripts|Payloads|docs)/[^`\s…*]*)`"#)
        for (index, line) in lines.enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            for match in link.matches(in: line, range: range) {
                guard let r = Range(match.range(at: 1), in: line) else { continue }
                let target = String(line[r])
                if let problem = try Self.check(link: target, from: page, directory: directory, root: root) {
                    problems.append("\(page):\(index + 1): \(problem)")
                }
            }
            for match in path.matches(in: line, range: range) {
                guard let r = Range(match.range(at: 1), in: line) else { continue }
                let named = String(line[r]).trimmingCharacters(in: CharacterSet(charactersIn: ".,:;"))
                if !FileManager.default.fileExists(atPath: root + "/" + named) {
                    problems.append("\(page):\(index + 1): `\(named)` does not exist in the repository")
                }
            }
        }
        return problems
    }

    private static func check(link target: String, from page: String, directory: String, root: String) throws -> String?
    {
        if target.hasPrefix("http://") || target.hasPrefix("https://") { return nil }
        if target.isEmpty { return "empty link target" }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file = parts[0].isEmpty ? page : (directory.isEmpty ? parts[0] : directory + "/" + parts[0])
        let full = (root + "/" + file as NSString).standardizingPath
        guard FileManager.default.fileExists(atPath: full) else { return "link to \(target): \(file) does not exist" }
        guard parts.count == 2 else { return nil }
        let anchors = try Self.anchors(of: full)
        return anchors.contains(parts[1])
            ? nil : "link to \(target): no heading in \(file) makes the anchor #\(parts[1])"
    }

    /// GitHub's anchors for a Markdown file's headings: lower case, punctuation dropped, spaces as `-`.
    public static func anchors(of file: String) throws -> Set<String> {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var anchors: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var anchor = ""
            for c in title.lowercased() {
                if c.isLetter || c.isNumber || c == "-" || c == "_" {
                    anchor.append(c)
                } else if c == " " {
                    anchor.append("-")
                }
            }
            var unique = anchor
            var n = 1
            while anchors.contains(unique) {
                unique = "\(anchor)-\(n)"
                n += 1
            }
            anchors.insert(unique)
        }
        return anchors
    }
}
