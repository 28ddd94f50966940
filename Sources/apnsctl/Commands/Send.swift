import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl send` (not implemented yet: filled in by its issue).
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Validate a payload, then send it to one or more device tokens.")

        func run() throws {
            throw CLIError.internalError("apnsctl send is not implemented yet")
        }
    }
}
