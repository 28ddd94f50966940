import APNSCore
import ArgumentParser

extension APNSCtl {
    /// `apnsctl convert` (not implemented yet: filled in by its issue).
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert .p12 to .pem (certificate chain and key) and .pem to .p12.")

        func run() throws {
            throw CLIError.internalError("apnsctl convert is not implemented yet")
        }
    }
}
