import APNSCore
import APNSPlatform
import APNSSettings

/// The exit codes of CLI.md. Exit status comes from the error's type, never from its text.
enum ExitStatus {
    static let success: Int32 = 0
    static let rejected: Int32 = 1
    static let usage: Int32 = 64
    static let payloadInvalid: Int32 = 65
    static let inputMissing: Int32 = 66
    static let transport: Int32 = 69
    static let internalError: Int32 = 70
    static let outputExists: Int32 = 73
    static let outputFailed: Int32 = 74
    static let credential: Int32 = 77
}

/// The one error type commands throw; each case maps to exactly one exit code.
/// Messages are one line: where (file, flag, field), what is wrong, what to do.
enum CLIError: Error {
    /// 64: unknown flag, bad value, conflicting or missing options.
    case usage(String)
    /// 64: the bad lines of a list, each its own `error:` line (a line break inside one, from a file's name or
    /// text, is escaped: it never starts a line of its own).
    case usageLines([String])
    /// 65: the payload breaks a rule (details were already printed, or are in the message).
    case payloadInvalid(String?)
    /// 66: an input file is missing or unreadable.
    case inputMissing(String)
    /// 69: connect, DNS, TLS, HTTP/2 protocol, GOAWAY, timeout.
    case transport(TransportProblem)
    /// 70: a bug in apnsctl.
    case internalError(String)
    /// 73: an output file exists or cannot be created.
    case outputExists(String)
    /// 74: standard output or an output file could not be written (disk full, closed pipe, I/O error).
    case outputFailed(String)
    /// 77: credential problem.
    case credential(String)
    /// 1: APNs answered and rejected at least one notification (the results are already printed).
    case rejected
    /// 128 + the signal (130 SIGINT, 143 SIGTERM): a signal cut the run short; what it did is printed.
    case interrupted(signal: Int32, message: String)
    /// `doctor`'s verdict on failed checks (77, 1 or 69; the checks are already printed), with its `error:` line.
    /// Its code stands even when standard output failed, as it always has (see `APNSCtl.execute`).
    case checksFailed(code: Int32, message: String?)

    var exitCode: Int32 {
        switch self {
        case .usage, .usageLines: return ExitStatus.usage
        case .payloadInvalid: return ExitStatus.payloadInvalid
        case .inputMissing: return ExitStatus.inputMissing
        case .transport: return ExitStatus.transport
        case .internalError: return ExitStatus.internalError
        case .outputExists: return ExitStatus.outputExists
        case .outputFailed: return ExitStatus.outputFailed
        case .credential: return ExitStatus.credential
        case .rejected: return ExitStatus.rejected
        case .interrupted(let signal, _): return 128 + signal
        case .checksFailed(let code, _): return code
        }
    }

    /// Prints the message on `stream` (standard error) with the `error:` prefix (nothing for `.rejected`).
    func report(to stream: MessageStream) {
        if case .usageLines(let lines) = self {
            for line in lines { stream.error(line) }
            return
        }
        if let message { stream.error(message) }
    }

    /// What `report` prints after `error: `; nil for `.rejected` and for a problem whose lines were printed
    /// already (a payload's errors).
    var message: String? {
        switch self {
        case .usage(let m), .inputMissing(let m), .outputExists(let m), .outputFailed(let m),
            .credential(let m),
            .interrupted(_, let m):
            return m
        case .usageLines(let lines):
            return lines.joined(separator: "\n")
        case .transport(let problem):
            return problem.message
        case .payloadInvalid(let m), .checksFailed(_, let m):
            return m
        case .internalError(let m):
            return "\(m) (this is a bug in apnsctl; please report it with the command you ran)"
        case .rejected:
            return nil
        }
    }

    /// A file-system failure: reading problems are 66, creating problems 73, a failed write 74.
    init(_ failure: FileSystem.Failure) {
        switch failure {
        case .missing, .unreadable, .tooLarge, .isDirectory: self = .inputMissing(failure.message)
        // A read a signal ended (its caller knows which signal, and says it; this is the fallback).
        case .interrupted: self = .interrupted(signal: ProcessSignals.interrupt, message: failure.message)
        // What a command's own flags can do about it (convert's --force, -o -) is the command's to add.
        case .exists: self = .outputExists(failure.message + "; choose another path, or remove it first")
        case .cannotCreate: self = .outputExists(failure.message)
        case .notARegularFile:
            self = .outputExists(failure.message + "; apnsctl replaces only regular files; choose another path")
        case .writeFailed: self = .outputFailed(failure.message)
        }
    }
}

extension CLIError {
    /// A settings problem: 66 for a missing named file or `mock.json`, else 64.
    init(_ problem: SettingsProblem) {
        self = problem.kind == .inputMissing ? .inputMissing(problem.message) : .usage(problem.message)
    }
}
