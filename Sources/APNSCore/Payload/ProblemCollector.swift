/// Gathers findings by byte offset while the rules run, then turns offsets into lines and columns
/// once, sorted in source order, so the output reads like a compiler's.
struct ProblemCollector {
    private struct Finding {
        let offset: Int
        let severity: ValidationProblem.Severity
        let path: String
        let message: String
        var flag: String? = nil
    }

    private var findings: [Finding] = []

    /// Records an error at byte `offset`.
    mutating func error(_ path: String, at offset: Int, _ message: String, flag: String? = nil) {
        findings.append(
            Finding(
                offset: offset, severity: .error, path: path, message: message,
                flag: flag))
    }

    /// Records a warning at byte `offset`.
    mutating func warning(_ path: String, at offset: Int, _ message: String, flag: String? = nil) {
        findings.append(
            Finding(
                offset: offset, severity: .warning, path: path, message: message,
                flag: flag))
    }

    /// The errors recorded under `path` (it or its members), in the order found.
    func errors(under path: String) -> [(path: String, offset: Int, message: String)] {
        findings.filter { $0.severity == .error && ($0.path == path || $0.path.hasPrefix(path + ".")) }
            .map { ($0.path, $0.offset, $0.message) }
    }

    /// Whether any error was recorded so far.
    var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The findings with positions in `source`, ordered by offset (ties keep the order they were found);
    /// `strict` turns warnings into errors.
    func problems(in source: [UInt8], strict: Bool) -> [ValidationProblem] {
        guard !findings.isEmpty else { return [] }
        let ordered = findings.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
        let positions = LineTable.positions(of: ordered.map { $0.element.offset }, in: source)
        return zip(ordered, positions).map { entry, p in
            let f = entry.element
            var problem = ValidationProblem(
                severity: strict ? .error : f.severity, path: f.path,
                line: p.line, column: p.column, message: f.message)
            problem.flag = f.flag
            return problem
        }
    }
}
