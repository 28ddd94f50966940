import APNSCore
import APNSPlatform
import APNSSettings

/// Renders `validate` results: compiler-style text lines or JSON Lines on stdout (the command's
/// result, as with linters), file errors on stderr. Output is buffered, since one call may check
/// thousands of files; it is flushed before anything goes to stderr so the two stay in order.
final class ValidateOutput {
    private let format: OutputFormat
    private let out: OutputSink
    private let messages: MessageStream

    /// A renderer writing `format` to the world's standard output, file errors to its standard error.
    init(format: OutputFormat, in world: CommandWorld) {
        self.format = format
        out = world.standardOutput
        messages = world.standardError
    }

    /// Prints one file's report.
    func report(_ report: ValidationReport, file: String) {
        switch format {
        case .text:
            for p in report.problems { out.line(ValidateOutput.textLine(p, file: file)) }
            if report.problems.isEmpty {
                // The file's name as every other line shows it: a control character in it is escaped.
                out.line(
                    PrintableText.escapingControls(
                        "\(file): ok (\(report.size) bytes of \(report.limit), \(report.pushType.rawValue))"))
            }
        case .json:
            out.line(ValidateOutput.jsonLine(report, file: file))
        }
    }

    /// `FILE:LINE:COLUMN: error|warning: PATH: message`, the line `send` prints for a payload problem too. The
    /// path holds the payload's keys as written: escaped here (JSON output escapes them as JSON does).
    static func textLine(_ p: ValidationProblem, file: String) -> String {
        PrintableText.escapingControls("\(file):\(p.line):\(p.column): \(p.severity.rawValue): \(p.path): \(p.message)")
    }

    /// A file that could not be read: `error: …` on stderr, with advice to check its path (standard input has
    /// none to check).
    /// With `-o json` the file gets its object too (one per file, as CLI.md says), invalid, its one problem the
    /// reading error, and what was never measured `null`: a script matching objects to its inputs sees every file.
    func fileError(_ failure: FileSystem.Failure, path: String) {
        // JSON typed where a file goes, as `send` takes it inline: validate reads files and standard input only.
        let inline = path.drop(while: \.isWhitespace).hasPrefix("{")
        // (A `~` no shell expanded, quotes or blanks around the path have their own advice in the message.)
        let advice =
            failure.isOverReadLimit
            ? "; " + Payload.overReadLimitAdvice
            : path == "-" || !FileSystem.missingPathHint(path).isEmpty
                ? ""
                : inline
                    ? "; validate reads files, not inline JSON: printf '%s' '{…}' | apnsctl validate -"
                    : APNSCtl.Send.curlAtFile(path).map { "; " + $0.replacing("PAYLOAD is", with: "it is") }
                        ?? "; check the path"
        let message = failure.message + advice
        if format == .json {
            var w = JSONWriter()
            w.beginObject()
            w.field("file", path)
            w.field("valid", false)
            w.field("size", nil as Int?)
            w.field("limit", nil as Int?)
            w.field("push_type", nil as String?)
            w.key("problems")
            w.beginArray()
            w.beginObject()
            w.field("severity", ValidationProblem.Severity.error.rawValue)
            w.field("path", ValidationProblem.rootPath)
            w.field("line", nil as Int?)
            w.field("column", nil as Int?)
            w.field("message", message)
            w.endObject()
            w.endArray()
            w.endObject()
            out.line(w.text)
        }
        out.flush()
        messages.error(message)
    }

    /// Writes what is still buffered.
    func finish() { out.flush() }

    /// `{"file":…,"valid":…,"size":…,"limit":…,"push_type":…,"problems":[{severity,path,line,column,message}]}`.
    static func jsonLine(_ report: ValidationReport, file: String) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("file", file)
        w.field("valid", !report.hasErrors)
        w.field("size", report.size)
        w.field("limit", report.limit)
        w.field("push_type", report.pushType.rawValue)
        w.key("problems")
        w.beginArray()
        for p in report.problems {
            w.beginObject()
            w.field("severity", p.severity.rawValue)
            w.field("path", p.path)
            w.field("line", p.line)
            w.field("column", p.column)
            w.field("message", p.message)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }
}
