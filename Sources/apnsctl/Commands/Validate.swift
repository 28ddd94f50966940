import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl validate` (not implemented yet: filled in by its issue).
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check payload files against APNs size limits and aps rules, without sending.")

        func run() throws {
            throw CLIError.internalError("apnsctl validate is not implemented yet")
        }
    }
}
