import APNSTestSupport
import Foundation
import Testing

/// docs/ci.md's pull-request job is run as written against `apnsctl mock` (the block between its
/// `apnsctl-doctor-mock` markers), with the built apnsctl first on PATH: the documented job stays correct.
@Suite struct DoctorDocsTests {
    static func ciMockScript() throws -> String {
        let text = try String(contentsOfFile: Repository.path("docs/ci.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let begin = lines.firstIndex(where: { $0.contains("# apnsctl-doctor-mock:begin") }),
              let end = lines.firstIndex(where: { $0.contains("# apnsctl-doctor-mock:end") }), begin < end else {
            throw TestSupportError("docs/ci.md lacks the apnsctl-doctor-mock markers")
        }
        let indent = lines[begin].prefix { $0 == " " }.count
        return lines[begin...end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n") + "\n"
    }

    @Test func theCIMockJobPasses() throws {
        let work = try TemporaryDirectory(prefix: "ci-doc")
        let script = try work.write("job.sh", "set -euo pipefail\n" + Self.ciMockScript())
        let bin = URL(fileURLWithPath: CommandRunner.apnsctlPath).deletingLastPathComponent().path
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try CommandRunner.run("/bin/bash", [script], environment: ["PATH": path, "XDG_CACHE_HOME": work.path],
                                      directory: work.path, timeout: 60)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let objects = r.lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(objects.count == r.lines.count && objects.count == 5, "\(r.stdout)")
        #expect(objects.last?["check"] as? String == "auth" && objects.last?["status"] as? String == "ok")
        #expect(r.stderr.contains("--fail-within applies to certificates"), "\(r.stderr)")
    }
}
