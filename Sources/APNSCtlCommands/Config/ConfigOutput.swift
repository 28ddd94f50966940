import APNSPlatform

/// Standard output for the config commands, checked: a failed write (a full disk, `/dev/full`) is exit 74
/// naming what was not written, never a silent exit 0.
enum ConfigOutput {
    /// `written`: the settings file this command already saved (config set, init, add-device), said in the error so
    /// a script does not take the 74 for an edit that did not happen, and run it again.
    static func write(_ lines: [String], to out: OutputSink, written: String? = nil) throws(CLIError) {
        guard !lines.isEmpty else { return }
        out.write(Array((lines.joined(separator: "\n") + "\n").utf8))
        if let failure = out.failure {
            let what =
                written.map { "\($0) was written, and what changed was not printed" } ?? "the settings were not printed"
            throw .outputFailed("writing standard output: \(FileSystem.errnoText(failure.code)); \(what)")
        }
    }
}
