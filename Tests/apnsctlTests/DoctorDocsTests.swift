import APNSTestSupport
import Foundation
import Testing

/// docs/ci.md's pull-request job (the lines between its `apnsctl-doctor-mock` markers) is the page's runnable
/// block, which `DocExamplesTests` runs against the built apnsctl and compares with what the page shows:
/// this checks the job runs the very same lines, so the documented job stays correct.
@Suite struct DoctorDocsTests {
    static func ciMockScript() throws -> [String] {
        let text = try String(contentsOfFile: Repository.path("docs/ci.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let begin = lines.firstIndex(where: { $0.contains("# apnsctl-doctor-mock:begin") }),
              let end = lines.firstIndex(where: { $0.contains("# apnsctl-doctor-mock:end") }), begin < end else {
            throw TestSupportError("docs/ci.md lacks the apnsctl-doctor-mock markers")
        }
        let indent = lines[begin].prefix { $0 == " " }.count
        return lines[(begin + 1)..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
    }

    @Test func theCIJobRunsTheTestedBlock() throws {
        let text = try String(contentsOfFile: Repository.path("docs/ci.md"), encoding: .utf8)
        let page = try DocExamplePage(name: "docs/ci.md", text: text)
        let tested = page.commands.flatMap { $0.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        var job = try Self.ciMockScript()
        #expect(job.last == #"exit "$status""#)
        job[job.count - 1] = #"echo "$status""#
        #expect(job == tested, "the job in docs/ci.md and its runnable block differ")
        let doctor = page.commands.first { $0.text.hasPrefix("apnsctl doctor") }
        #expect(doctor?.expected.contains { $0.text.contains("--fail-within applies to certificates") } == true)
        let report = page.commands.first { $0.text == "cat doctor.jsonl" }
        #expect(report?.expected.count == 5 && report?.expected.last?.text.contains(#""check":"auth""#) == true)
    }
}
