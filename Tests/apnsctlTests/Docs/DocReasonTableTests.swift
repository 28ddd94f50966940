import APNSClient
import APNSCore
import APNSTestSupport
import Foundation
import Testing

@testable import APNSCtlCommands

/// docs/troubleshooting.md's reason table mirrors the code: one row per `APNSReason` with its status,
/// meaning (`APNSReason.meaning`), hint (`APNSReason+Hint.swift`) and the broadcast hint where it differs.
@Suite struct DocReasonTableTests {
    static let begin = "<!-- reasons: generated from APNSReason; DocReasonTableTests checks it -->"
    static let end = "<!-- reasons:end -->"

    /// The row the code gives `reason`.
    static func row(_ reason: APNSReason) -> String {
        let broadcast = reason.hint(broadcast: true)
        let advice = reason.hint + (broadcast == reason.hint ? "" : " Broadcasts: " + broadcast)
        return "| `\(reason.rawValue)` | \(reason.status) | \(reason.meaning) | \(advice) |"
    }

    /// The whole table the code gives, as the page must hold it between the markers.
    static var table: [String] {
        ["| reason | status | meaning | what to check |", "|---|---|---|---|"] + APNSReason.allCases.map(row)
    }

    /// The differences between `page`'s table and `expected` rows (keyed by reason), each naming its line.
    static func problems(page: String, name: String, expected: [String: String]) -> [String] {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let b = lines.firstIndex(of: begin), let e = lines.firstIndex(of: end), b < e else {
            return ["\(name): no reason table between its markers"]
        }
        var problems: [String] = []
        var seen: Set<String> = []
        for index in (b + 1)..<e {
            let line = lines[index]
            guard line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") else { continue }
            let reason = String(line[line.index(line.startIndex, offsetBy: 3)..<close])
            seen.insert(reason)
            guard let want = expected[reason] else {
                problems.append("\(name):\(index + 1): \(reason) is not a reason the code knows (APNSReason)")
                continue
            }
            if want != line {
                problems.append(
                    "\(name):\(index + 1): the row for \(reason) differs from the code:\n  code: \(want)\n  page: \(line)"
                )
            }
        }
        for reason in expected.keys.sorted() where !seen.contains(reason) {
            problems.append("\(name):\(e + 1): \(reason) (APNSReason) has no row; add: \(expected[reason] ?? "")")
        }
        return problems
    }

    static var codeRows: [String: String] {
        Dictionary(uniqueKeysWithValues: APNSReason.allCases.map { ($0.rawValue, row($0)) })
    }

    @Test func theTroubleshootingTableIsTheCodes() throws {
        let text = try String(contentsOfFile: Repository.path("docs/troubleshooting.md"), encoding: .utf8)
        let problems = Self.problems(page: text, name: "docs/troubleshooting.md", expected: Self.codeRows)
        #expect(
            problems.isEmpty,
            "\(problems.joined(separator: "\n"))\nThe table the code gives:\n\(Self.table.joined(separator: "\n"))")
    }

    @Test func aNewReasonAChangedHintOrAnUnknownRowFails() throws {
        let page = ([Self.begin] + Self.table + [Self.end]).joined(separator: "\n")
        #expect(Self.problems(page: page, name: "t.md", expected: Self.codeRows).isEmpty)
        var added = Self.codeRows
        added["BrandNewReason"] = "| `BrandNewReason` | 400 | New. | Check. |"
        #expect(
            Self.problems(page: page, name: "t.md", expected: added).contains {
                $0.contains("BrandNewReason (APNSReason) has no row")
            })
        let changedHint = page.replacingOccurrences(of: APNSReason.unregistered.hint, with: "Keep sending.")
        #expect(
            Self.problems(page: changedHint, name: "t.md", expected: Self.codeRows).contains {
                $0.contains("the row for Unregistered differs")
            })
        let changedMeaning = page.replacingOccurrences(of: APNSReason.badTopic.meaning, with: "The topic is fine.")
        #expect(
            Self.problems(page: changedMeaning, name: "t.md", expected: Self.codeRows).contains {
                $0.contains("the row for BadTopic differs")
            })
        let unknown = page.replacingOccurrences(of: Self.end, with: "| `MadeUp` | 400 | x | y |\n" + Self.end)
        #expect(
            Self.problems(page: unknown, name: "t.md", expected: Self.codeRows).contains {
                $0.contains("MadeUp is not a reason the code knows")
            })
    }
}

/// The exit codes on the pages are `ExitStatus`'s, with 130/143 for signals: none missing, none made up.
/// The codes are read from `ExitStatus`'s declaration, so a code added there fails until the pages list it.
@Suite struct DocExitCodeTests {
    static let source = "Sources/APNSCtlCommands/Shared/Messages/CLIError.swift"

    /// Every `static let NAME: Int32 = N` of `enum ExitStatus` in `text`, plus the signal codes 130 and 143.
    static func declaredCodes(in text: String) throws -> Set<Int32> {
        let start = try #require(text.range(of: "enum ExitStatus {"), "\(source) no longer declares enum ExitStatus")
        let body = String(text[start.upperBound...].prefix { $0 != "}" })
        let regex = try NSRegularExpression(pattern: #"static let [A-Za-z]+: Int32 = ([0-9]+)"#)
        let codes = regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { m in
            Range(m.range(at: 1), in: body).flatMap { Int32(body[$0]) }
        }
        return Set(codes).union([130, 143])
    }

    /// The numbers listed in `paragraph` (a code stands alone: `0`, `64,`, `(77`, `130/143`).
    static func listedCodes(in paragraph: String) throws -> Set<Int32> {
        let regex = try NSRegularExpression(pattern: #"(?:^|[ ,/(|\n])([0-9]{1,3})(?=[ /,|\n]|$)"#)
        return Set(
            regex.matches(in: paragraph, range: NSRange(paragraph.startIndex..., in: paragraph)).compactMap { m in
                Range(m.range(at: 1), in: paragraph).flatMap { Int32(paragraph[$0]) }
            })
    }

    /// The text from `start` to the next blank line.
    static func paragraph(of text: String, from start: String) throws -> String {
        let range = try #require(text.range(of: start), "no \"\(start)\"")
        let rest = text[range.lowerBound...]
        return String(rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)])
    }

    /// The first cells of a table's rows (its header and separator left out), one per line.
    static func firstColumn(of table: String) -> String {
        table.split(separator: "\n").dropFirst(2).compactMap { row in
            row.split(separator: "|", omittingEmptySubsequences: true).first.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }.joined(separator: "\n")
    }

    /// What is wrong with `listed` against `declared`, naming `place`.
    static func problems(_ place: String, listed: Set<Int32>, declared: Set<Int32>) -> [String] {
        var problems: [String] = []
        if !declared.subtracting(listed).isEmpty {
            problems.append("\(place) lacks exit codes \(declared.subtracting(listed).sorted())")
        }
        if !listed.subtracting(declared).isEmpty {
            problems.append(
                "\(place) lists exit codes ExitStatus does not have: \(listed.subtracting(declared).sorted())")
        }
        return problems
    }

    @Test func theDeclarationIsWhatTheCodeUses() throws {
        let declared = try Self.declaredCodes(in: String(contentsOfFile: Repository.path(Self.source), encoding: .utf8))
        let used: Set<Int32> = [
            ExitStatus.success, ExitStatus.rejected, ExitStatus.usage, ExitStatus.payloadInvalid,
            ExitStatus.inputMissing, ExitStatus.transport, ExitStatus.internalError,
            ExitStatus.outputExists, ExitStatus.outputFailed, ExitStatus.credential, 130, 143,
        ]
        #expect(declared == used, "read from \(Self.source): \(declared.sorted())")
    }

    @Test func theReadmeAndTheSendingPageListExactlyTheExitCodes() throws {
        let declared = try Self.declaredCodes(in: String(contentsOfFile: Repository.path(Self.source), encoding: .utf8))
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let sending = try String(contentsOfFile: Repository.path("docs/sending.md"), encoding: .utf8)
        let problems =
            Self.problems(
                "README.md", listed: try Self.listedCodes(in: Self.paragraph(of: readme, from: "Exit codes: ")),
                declared: declared)
            + Self.problems(
                "docs/sending.md",
                listed: try Self.listedCodes(
                    in: Self.firstColumn(of: Self.paragraph(of: sending, from: "| exit | meaning |"))),
                declared: declared)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func apnsctlHelpListsExactlyTheExitCodes() throws {
        let declared = try Self.declaredCodes(in: String(contentsOfFile: Repository.path(Self.source), encoding: .utf8))
        let help = try InProcess.apnsctl(["--help"]).stdout
        let listed = try Self.listedCodes(in: Self.paragraph(of: help, from: "Exit codes: "))
        let problems = Self.problems("apnsctl --help", listed: listed, declared: declared)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aNewCodeOrAMadeUpOneFails() throws {
        let declared = try Self.declaredCodes(
            in:
                "enum ExitStatus {\n    static let success: Int32 = 0\n    static let busy: Int32 = 75\n}\nlet x: Int32 = 9"
        )
        #expect(declared == [0, 75, 130, 143])
        let listed = try Self.listedCodes(in: "Exit codes: 0 success, 64 usage, 130/143 after signals.")
        #expect(listed == [0, 64, 130, 143])
        let problems = Self.problems("t.md", listed: listed, declared: declared)
        #expect(
            problems.contains("t.md lacks exit codes [75]")
                && problems.contains("t.md lists exit codes ExitStatus does not have: [64]"), "\(problems)")
        let table = try Self.listedCodes(
            in: Self.firstColumn(
                of: "| exit | meaning |\n|---|---|\n| 0 | ok |\n| 64 | usage, not 65 |\n| 130, 143 | signal |"))
        #expect(table == [0, 64, 130, 143])
    }
}

/// docs/validation.md's push-type table is `PushType`'s: topic suffix, default priority, size limit and
/// certificate auth, one row per push type, in the code's order.
@Suite struct DocPushTypeTableTests {
    static let begin = "<!-- push types: generated from PushType; DocPushTypeTableTests checks it -->"
    static let end = "<!-- push types:end -->"

    static var table: [String] {
        ["| push type | topic suffix | default priority | size limit | certificate auth |", "|---|---|---|---|---|"]
            + PushType.allCases.map { type in
                let suffix = type.topicSuffix.isEmpty ? "(none)" : "`\(type.topicSuffix)`"
                let priority =
                    RequestDefaults.priority(explicit: nil, pushType: type).map { String($0.rawValue) } ?? "none sent"
                return
                    "| `\(type.rawValue)` | \(suffix) | \(priority) | \(type.defaultSizeLimit) bytes | \(!type.allowsCertificateAuth ? "no: token auth only" : type.allowsTokenAuth ? "yes" : "yes: the MDM push certificate only (token auth is exit 77)") |"
            }
    }

    @Test func theValidationPageTableIsTheCodes() throws {
        let text = try String(contentsOfFile: Repository.path("docs/validation.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = try #require(lines.firstIndex(of: Self.begin), "docs/validation.md lacks its push-type table markers")
        let e = try #require(lines.firstIndex(of: Self.end))
        let page = Array(lines[(b + 1)..<e])
        #expect(
            page == Self.table,
            "docs/validation.md:\(b + 2): the push-type table differs from PushType; the code gives:\n\(Self.table.joined(separator: "\n"))"
        )
    }
}
