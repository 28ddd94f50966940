import APNSCore
import APNSPlatform
import APNSSettings

/// Renders `apnsctl doctor`'s checks: one aligned line per check (`ok    dns           …`), or one JSON
/// object per check per line with `-o json` (nothing else on stdout).
enum DoctorOutput {
    /// Width of the check column (`credentials` and `auth sandbox` fit; longer labels push the detail right).
    static let checkWidth = 14

    static func print(_ checks: [DoctorCheck], format: OutputFormat, to sink: OutputSink) {
        var out = ""
        for check in checks { out += line(check, format: format) + "\n" }
        sink.print(out)
    }

    /// One check as a line of `format`.
    static func line(_ check: DoctorCheck, format: OutputFormat) -> String {
        switch format {
        case .text:
            let status = check.status.rawValue.padding(to: 6)
            let label = check.label.count < checkWidth ? check.label.padding(to: checkWidth) : check.label + "  "
            let text = check.detail + (check.hint.map { separator(after: check) + $0 } ?? "")
            return status + label + PrintableText.escapingControls(text)
        case .json:
            var w = JSONWriter()
            w.beginObject()
            w.field("check", check.name)
            w.field("environment", check.environment?.rawValue)
            w.field("status", check.status.rawValue)
            w.field("detail", check.detail)
            w.field("reason", check.reason?.text)
            w.field("hint", check.hint)
            if let notAfter = check.notAfter {
                w.field("not_after", ISO8601.format(epochSeconds: notAfter))
                w.field("days_remaining", check.daysRemaining)
            }
            w.endObject()
            return w.text
        }
    }
}

/// Between a line's detail and its hint: a sentence is followed by a space; a bare APNs reason by a colon,
/// as CLI.md shows (`403 BadEnvironmentKeyIdInToken: this key is for sandbox only …`); anything else by `; `.
private func separator(after check: DoctorCheck) -> String {
    if check.detail.hasSuffix(".") || check.detail.hasSuffix("?") { return " " }
    if let reason = check.reason?.text, check.detail.hasSuffix(reason) { return ": " }
    return "; "
}

extension String {
    /// Right-padded with spaces to `width` characters.
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
