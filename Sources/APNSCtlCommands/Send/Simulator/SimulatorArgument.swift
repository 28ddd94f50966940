import APNSCore

/// `--simulator` takes an optional device (`booted` by default). The parser has no optional values, so a bare
/// `--simulator` (last, or before another option or the payload) gets `booted` written after it first.
enum SimulatorArgument {
    static func withDefaultDevice(_ arguments: [String]) -> [String] {
        guard arguments.first == "send", let i = arguments.firstIndex(of: "--simulator") else { return arguments }
        let next = i + 1 < arguments.count ? arguments[i + 1] : nil
        guard let next, !isPayload(next), !next.hasPrefix("-") else {
            var fixed = arguments
            fixed.insert("booted", at: i + 1)
            return fixed
        }
        return arguments
    }

    /// What only a payload looks like: inline JSON, standard input, or a payload file's name (in any case, as
    /// the payload reader takes it).
    private static func isPayload(_ value: String) -> Bool {
        value == "-" || value.hasPrefix("{") || value.lowercased().hasSuffix(".json") || Payload.isAPNSPath(value)
    }
}
