import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl mock` (not implemented yet: filled in by its issue).
    struct Mock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mock",
            abstract: "Run a local APNs-compatible HTTP/2 server for demos, tests and CI.")

        func run() throws {
            throw CLIError.internalError("apnsctl mock is not implemented yet")
        }
    }
}
