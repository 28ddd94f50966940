import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl inspect` (not implemented yet: filled in by its issue).
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show what a .pem, .p12 or .p8 file holds.")

        func run() throws {
            throw CLIError.internalError("apnsctl inspect is not implemented yet")
        }
    }
}
