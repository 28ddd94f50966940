import APNSPlatform

/// Standard output for the config commands, checked: a failed write (a full disk, `/dev/full`) is exit 74
/// naming what was not written, never a silent exit 0.
enum ConfigOutput {
    static func write(_ lines: [String], to out: OutputSink) throws(CLIError) {
        guard !lines.isEmpty else { return }
        out.write(Array((lines.joined(separator: "\n") + "\n").utf8))
        if let failure = out.failure {
            throw .outputFailed(
                "writing standard output: \(FileSystem.errnoText(failure.code)); the settings were not printed")
        }
    }
}
