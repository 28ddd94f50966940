import APNSSettings
import ArgumentParser

/// text or json: the one type of every command's `-o`. Where `-o` is a setting (send, channel, doctor) it is
/// read through the settings; elsewhere it is parsed here by the same parser, so `-o yaml` gets the same
/// message from every command.
extension OutputFormat {
    /// The argument parser's `transform:` for a `-o` that is not a setting.
    @Sendable static func argument(_ text: String) throws -> OutputFormat {
        try SettingParser.parseFlag(text, for: .output, command: .send)
    }

    /// The values, for shell completion.
    static let completion = CompletionKind.list(allCases.map(\.rawValue))
}
