import APNSCore

/// One line of `apnsctl doctor`'s report: a check, its status, what it found and what to do.
struct DoctorCheck: Equatable {
    enum Status: String, Equatable {
        case ok, warn, fail
    }

    /// What kind of problem a failed check is, which decides the exit code (CLI.md: 77, then 1, then 69).
    enum Problem: Equatable {
        /// A local credential problem: expired, not yet valid, expiring within `--fail-within` (77).
        case credential
        /// APNs (or the server) answered and refused the credentials (1).
        case rejected
        /// A network phase failed: DNS, connect, proxy, TLS, or no answer (69).
        case network
        /// A credential file missing or unreadable (66).
        case inputMissing

        var exitCode: Int32 {
            switch self {
            case .credential: return ExitStatus.credential
            case .rejected: return ExitStatus.rejected
            case .network: return ExitStatus.transport
            case .inputMissing: return ExitStatus.inputMissing
            }
        }
    }

    /// `credentials`, `dns`, `connect`, `proxy`, `tls`, `auth`.
    var name: String
    /// The environment a per-environment check is about; nil for `credentials`.
    var environment: APNSEnvironment? = nil
    var status: Status
    var detail: String
    var hint: String? = nil
    /// `auth` only: the probe's APNs reason (`BadDeviceToken` when ok).
    var reason: ReceivedReason? = nil
    /// What went wrong, for a `fail` (and for a failure softened to `warn`).
    var problem: Problem? = nil
    /// For a certificate: its notAfter (epoch seconds) and whole days left.
    var notAfter: Int64? = nil
    var daysRemaining: Int? = nil

    /// The text line's check column, as CLI.md shows it: `auth sandbox` names its environment; the network
    /// checks name their host in the detail instead.
    var label: String {
        guard name == "auth", let environment else { return name }
        return "\(name) \(environment.rawValue)"
    }

    /// `auth sandbox`, `connect production`: the check and its environment, for the `error:` line.
    var fullLabel: String { environment.map { "\(name) \($0.rawValue)" } ?? name }

    static func ok(_ name: String, _ environment: APNSEnvironment?, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, environment: environment, status: .ok, detail: detail)
    }

    static func fail(
        _ name: String, _ environment: APNSEnvironment?, _ problem: Problem, _ detail: String,
        hint: String? = nil, reason: ReceivedReason? = nil
    ) -> DoctorCheck {
        DoctorCheck(
            name: name, environment: environment, status: .fail, detail: detail, hint: hint, reason: reason,
            problem: problem)
    }
}

/// What one environment's checks came to.
struct EnvironmentReport: Equatable {
    let environment: APNSEnvironment
    var checks: [DoctorCheck]
    /// A signal ended the checks: those above it finished, the one it cut short is left out.
    var interrupted = false

    /// The probe got `BadDeviceToken`: credentials and topic accepted here.
    var accepted: Bool { checks.contains { $0.name == "auth" && $0.status == .ok } }
}

/// The whole run's verdict: which failures count, and the exit code (CLI.md's doctor rules).
enum DoctorVerdict {
    /// Settles the report. With `--env` (`explicit`), every environment probed must accept. With the default,
    /// one that accepts is enough and the others' failures become `warn` lines naming the working one;
    /// when none accepts, they all stay failures. Exit: 0 without a `fail`, else 77, then 1, then 69.
    static func settle(
        credentials: [DoctorCheck], environments: [EnvironmentReport],
        explicit: Bool
    ) -> (checks: [DoctorCheck], exitCode: Int32) {
        var all = credentials
        let working = environments.filter(\.accepted).map(\.environment)
        for report in environments {
            for var check in report.checks {
                if !explicit, check.status == .fail, let good = working.first, good != report.environment {
                    check.status = .warn
                    let note = "\(good.rawValue) accepted the credentials, so this run passes"
                    check.hint = check.hint.map { "\($0); \(note)" } ?? note
                }
                all.append(check)
            }
        }
        return (all, exitCode(all))
    }

    /// 0 without a `fail`; else the highest-precedence problem: 77, then 1, then 69.
    static func exitCode(_ checks: [DoctorCheck]) -> Int32 {
        let problems = checks.filter { $0.status == .fail }.compactMap(\.problem)
        for p in [DoctorCheck.Problem.credential, .rejected, .network] where problems.contains(p) { return p.exitCode }
        return checks.contains { $0.status == .fail } ? ExitStatus.rejected : ExitStatus.success
    }

    /// The `error:` line that ends a failed run: the failed check that set the exit code (77, then 1, then 69; the
    /// first of its kind) and what it said. A CI log may keep only this line, so it names the failure the code
    /// stands for: exit 1 with a line about an earlier network failure sent the reader the wrong way.
    static func errorLine(_ checks: [DoctorCheck]) -> String? {
        let failed = checks.filter { $0.status == .fail }
        guard !failed.isEmpty else { return nil }
        let precedence: [DoctorCheck.Problem] = [.credential, .rejected, .network]
        let first = precedence.lazy.compactMap { p in failed.first { $0.problem == p } }.first ?? failed[0]
        let more = failed.count - 1
        // The credentials' and the app's detail describes the file; why it failed (expires within --fail-within,
        // another team) is the hint, which a CI log reading this line alone needs too. So is a failed TLS check's:
        // whose CA to trust (--ca-file), where the detail speaks only of the store that was searched.
        // After a detail that ends with a question ("an HTTP/1.1-only server?"), the hint is a sentence of its own.
        let joint = first.detail.hasSuffix("?") ? " " : "; "
        let why = ["credentials", "app", "tls"].contains(first.name) ? first.hint.map { joint + $0 } ?? "" : ""
        return "doctor: \(first.fullLabel) failed: \(first.detail)\(why)"
            + (more > 0 ? " (and \(more) more failed check\(more == 1 ? "" : "s") above)" : "")
    }
}
