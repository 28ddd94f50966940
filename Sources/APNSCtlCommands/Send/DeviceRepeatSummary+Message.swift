import APNSClient

extension DeviceRepeatSummary {
    /// `7 repeated tokens were sent once (first: --devices tokens.txt:812 repeats line 3)`; `file`: the list's
    /// name as given. A dry run says what the run would do: `… would be sent once`.
    func message(file: String, dryRun: Bool = false) -> String {
        let what =
            (total == 1 ? "1 repeated token " : "\(total) repeated tokens ")
            + (dryRun ? "would be" : total == 1 ? "was" : "were")
        switch first {
        case .flag(let flag, let repeated):
            return "\(what) sent once (first: --device \(flag) repeats --device \(repeated))"
        case .lineRepeatsFlag(let line, let flag):
            return "\(what) sent once (first: --devices \(file):\(line) repeats --device \(flag))"
        case .lineRepeatsLine(let line, let earlier):
            return "\(what) sent once (first: --devices \(file):\(line) repeats line \(earlier))"
        }
    }
}
