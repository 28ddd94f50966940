import APNSCrypto
import APNSPlatform
import Testing

@testable import APNSCtlCommands

/// The layers below the commands report facts; the command line adds the flags that help.
@Suite struct LowerLayerWordingTests {
    @Test func anOutputPathThatIsNotARegularFileNamesForceAndStandardOutput() {
        let failure = FileSystem.Failure.notARegularFile(path: "-o out.pem", what: "a FIFO (named pipe)")
        #expect(failure.message == "-o out.pem: is a FIFO (named pipe), not a regular file")
        guard case .outputExists(let message) = CLIError(failure) else {
            Issue.record("not exit 73: \(CLIError(failure))")
            return
        }
        #expect(
            message == "-o out.pem: is a FIFO (named pipe), not a regular file; apnsctl replaces only regular files, "
                + "even with --force; choose another path, or write to standard output with -o -")
    }

    @Test func tokenCacheWarningsSayWhatWasSkippedAndWhatToDo() {
        let refusal = PrivateDirectory.Failure.untrusted(
            path: "/c/apnsctl/token-T-K.jwt", reason: "is a FIFO, not a regular file")
        #expect(
            TokenCacheWarning.cacheSkipped(refusal).message
                == "/c/apnsctl/token-T-K.jwt: is a FIFO, not a regular file; the provider token cache is skipped "
                + "(a new token is signed and not stored); remove it, or pass --no-token-cache")
        #expect(
            TokenCacheWarning.secretSkipped(refusal).message
                == "/c/apnsctl/token-T-K.jwt: is a FIFO, not a regular file; the provider token cache's secret is not used "
                + "(cached tokens are checked against the key instead); remove it")
    }
}
