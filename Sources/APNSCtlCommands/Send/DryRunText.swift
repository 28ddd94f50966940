import APNSPlatform
import APNSCore

/// A dry run's text (`send --dry-run`, with devices or channels): lines built once, written at once.
protocol DryRunText {
    /// The request and the curl command, line by line.
    func lines() -> [String]
}

extension DryRunText {
    /// Writes the lines on stdout.
    func print() {
        let out = OutputSink.standardOutput
        for line in lines() { out.line(line) }
        out.flush()
    }
}
