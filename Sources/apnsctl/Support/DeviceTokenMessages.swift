import APNSClient
import APNSCore

extension DeviceToken.Problem {
    /// The problem as `send` words it: the core says what is wrong with the value, apnsctl says which of
    /// its flags takes one token (CLI.md: "one token per --device").
    var cliMessage: String {
        guard case .innerWhitespace = self else { return message }
        return message + "; give one token per --device, one per line in a --devices file"
    }
}

extension DeviceFile.Problem {
    /// The problem as `send` words it, naming `--devices` and, for a bad line, the token rule.
    var cliMessage: String {
        switch self {
        case .file: return "--devices " + message
        case .token(_, _, _, let problem):
            guard case .innerWhitespace = problem else { return "--devices " + message }
            return "--devices " + message + "; give one per line"
        }
    }
}
