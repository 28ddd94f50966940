import APNSTestSupport
import Foundation
import Testing

/// docs/ci.md's pull-request jobs (GitHub Actions and GitLab CI, the lines between `apnsctl-doctor-mock` markers) are the page's runnable
/// block, which `DocExamplesTests` runs against the built apnsctl and compares with what the page shows:
/// this checks the job runs the very same lines, so the documented job stays correct.
@Suite struct DoctorDocsTests {
    /// Every job of docs/ci.md between `apnsctl-doctor-mock` markers (GitHub Actions, GitLab CI), its indent removed.
    static func ciMockScripts() throws -> [[String]] {
        let text = try String(contentsOfFile: Repository.path("docs/ci.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var jobs: [[String]] = []
        var from = 0
        while let begin = lines[from...].firstIndex(where: { $0.contains("# apnsctl-doctor-mock:begin") }) {
            guard let end = lines[begin...].firstIndex(where: { $0.contains("# apnsctl-doctor-mock:end") }) else {
                throw TestSupportError("docs/ci.md:\(begin + 1): apnsctl-doctor-mock:begin without its end marker")
            }
            let indent = lines[begin].prefix { $0 == " " }.count
            jobs.append(
                lines[(begin + 1)..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) })
            from = end + 1
        }
        return jobs
    }

    @Test func theCIJobRunsTheTestedBlock() throws {
        let text = try String(contentsOfFile: Repository.path("docs/ci.md"), encoding: .utf8)
        let page = try DocExamplePage(name: "docs/ci.md", text: text)
        let tested = page.commands.flatMap {
            $0.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let jobs = try Self.ciMockScripts()
        #expect(jobs.count == 2, "docs/ci.md should mark the GitHub Actions and the GitLab CI job")
        for (index, script) in jobs.enumerated() {
            var job = script
            #expect(job.last == #"exit "$status""#)
            if !job.isEmpty { job[job.count - 1] = #"echo "$status""# }
            #expect(job == tested, "job \(index + 1) in docs/ci.md and its runnable block differ")
        }
        let doctor = page.commands.first { $0.text.hasPrefix("apnsctl doctor") }
        #expect(doctor?.expected.contains { $0.text.contains("--fail-within applies to certificates") } == true)
        let report = page.commands.first { $0.text == "cat doctor.jsonl" }
        #expect(report?.expected.count == 5 && report?.expected.last?.text.contains(#""check":"auth""#) == true)
    }
}
