import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl jwt` (not implemented yet: filled in by its issue).
    struct JWT: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jwt",
            abstract: "Print a provider authentication token (ES256 JWT) made from a .p8 key.")

        func run() throws {
            throw CLIError.internalError("apnsctl jwt is not implemented yet")
        }
    }
}
