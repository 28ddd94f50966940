import APNSCrypto
import APNSPlatform
import Testing

@testable import APNSCtlCommands

/// The layers below the commands report facts; the command line adds the flags that help.
@Suite struct LowerLayerWordingTests {
    /// The lower layer's fact, with advice no command's flags are needed for: --force and -o - are convert's
    /// (send's -o is its output format), and convert adds them itself.
    @Test func anOutputPathThatIsNotARegularFileIsToldWithoutOtherCommandsFlags() {
        let failure = FileSystem.Failure.notARegularFile(path: "--unsent out", what: "a directory")
        #expect(failure.message == "--unsent out: is a directory, not a regular file")
        guard case .outputExists(let message) = CLIError(failure) else {
            Issue.record("not exit 73: \(CLIError(failure))")
            return
        }
        #expect(
            message
                == "--unsent out: is a directory, not a regular file; apnsctl replaces only regular files; choose another path"
        )
    }

    @Test func tokenCacheWarningsSayWhatWasSkippedAndWhatToDo() {
        let refusal = PrivateDirectory.Failure.untrusted(
            path: "/c/apnsctl/token-T-K.jwt", reason: "is a FIFO, not a regular file", remedy: .remove)
        #expect(
            TokenCacheWarning.cacheSkipped(refusal).message
                == "/c/apnsctl/token-T-K.jwt: is a FIFO, not a regular file; the provider token cache is skipped "
                + "(a new token is signed and not stored); remove it, or pass --no-token-cache")
        #expect(
            TokenCacheWarning.secretSkipped(refusal).message
                == "/c/apnsctl/token-T-K.jwt: is a FIFO, not a regular file; the provider token cache's secret is not used "
                + "(cached tokens are checked against the key instead); remove it")
        let open = PrivateDirectory.Failure.untrusted(
            path: "/c/apnsctl", reason: "is writable by others (mode 0707)", remedy: .closeMode)
        #expect(
            TokenCacheWarning.cacheSkipped(open).message
                == "/c/apnsctl: is writable by others (mode 0707); the provider token cache is skipped "
                + "(a new token is signed and not stored); close it (chmod 700 /c/apnsctl), or pass --no-token-cache")
    }
}
