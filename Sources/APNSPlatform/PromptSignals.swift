#if canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#else
    import Glibc
#endif

// The terminal state the handlers need. Signal handlers cannot capture context, so it lives in globals,
// set before the handlers are installed and cleared after they are removed (one prompt at a time).
nonisolated(unsafe) private var promptFD: Int32 = -1
nonisolated(unsafe) private var promptSaved = termios()
nonisolated(unsafe) private var promptQuiet = termios()
nonisolated(unsafe) private var promptText: UnsafeMutablePointer<UInt8>? = nil
nonisolated(unsafe) private var promptTextCount = 0

/// SIGINT, SIGTERM, SIGHUP: put the terminal back as it was, end the prompt's line, then die of the
/// signal as if there were no handler (the shell sees the real cause).
private func restoreAndReraise(_ signo: Int32) {
    if promptFD >= 0 {
        _ = tcsetattr(promptFD, TCSANOW, &promptSaved)
        var newline: UInt8 = 0x0A
        _ = posixWrite(promptFD, &newline, 1)
    }
    ProcessSignals.dieOf(signo)
}

/// SIGTSTP (Ctrl-Z): echo back on while stopped (the shell and the user get a normal terminal), then
/// stop as the default action would. The stop happens inside the handler (SIGTSTP is unblocked for
/// it), so when it returns, whether after `fg` or because the kernel discarded the stop (an orphaned
/// process group), echo goes off again before the user types on.
private func restoreAndStop(_ signo: Int32) {
    if promptFD >= 0 { _ = tcsetattr(promptFD, TCSANOW, &promptSaved) }
    ProcessSignals.stopAsByDefault(thenReinstall: restoreAndStop)
    if promptFD >= 0 { _ = tcsetattr(promptFD, TCSANOW, &promptQuiet) }
}

/// SIGCONT (`fg`, or `kill -CONT` after any stop): echo off again before the user types on, and show
/// the prompt again.
private func quietAgain(_ signo: Int32) {
    guard promptFD >= 0 else { return }
    _ = tcsetattr(promptFD, TCSANOW, &promptQuiet)
    if let text = promptText {
        var newline: UInt8 = 0x0A
        _ = posixWrite(promptFD, &newline, 1)
        _ = posixWrite(promptFD, text, promptTextCount)
    }
}

/// Signal handlers for the time a no-echo prompt is shown: without them, Ctrl-C under a shell that does
/// not reset the terminal (dash) leaves echo off, and Ctrl-Z then `fg` shows the passphrase as it is typed.
struct PromptSignals {
    private let previous: [ProcessSignals.Saved]

    /// Installs the handlers for a prompt on `fd`, whose terminal was `saved` and is now `quiet`.
    init(fd: Int32, saved: termios, quiet: termios, prompt: [UInt8]) {
        promptSaved = saved
        promptQuiet = quiet
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(prompt.count, 1))
        text.initialize(from: prompt, count: prompt.count)
        promptText = text
        promptTextCount = prompt.count
        promptFD = fd
        // An ignored signal stays ignored (nohup, background jobs of a shell without job control).
        var previous = [SIGINT, SIGTERM, SIGHUP].map {
            ProcessSignals.replace($0, with: restoreAndReraise, keepingIgnored: true)
        }
        previous.append(ProcessSignals.replace(SIGTSTP, with: restoreAndStop))
        previous.append(ProcessSignals.replace(SIGCONT, with: quietAgain))
        self.previous = previous
    }

    /// Puts the previous handlers back (after the terminal was restored).
    func remove() {
        ProcessSignals.restore(previous)
        promptFD = -1
        if let text = promptText {
            text.deallocate()
            promptText = nil
        }
        promptTextCount = 0
    }
}
