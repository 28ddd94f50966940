import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one self-pipe: a poke makes the read end readable for pollers, bytes queue in order, and both ends
/// are safe to hand to a poll loop and a child process (non-blocking, close-on-exec).
@Suite struct WakePipeTests {
    /// Whether `fd` is readable right now, without sleeping.
    func isReadable(_ fd: Int32) -> Bool {
        PollSet.wait(for: fd, .readable, until: 0).contains(.readable)
    }

    @Test func signalWakesAPollerAndStaysUpUntilDrained() throws {
        let pipe = try #require(WakePipe())
        #expect(!isReadable(pipe.readFD))
        pipe.signal()
        // A level, not an edge: every poller sees it, as often as it looks.
        #expect(isReadable(pipe.readFD))
        #expect(isReadable(pipe.readFD))
        pipe.signal()
        pipe.drain()
        #expect(!isReadable(pipe.readFD))
        pipe.signal()
        #expect(isReadable(pipe.readFD))
    }

    @Test func bytesComeOutInTheOrderTheyWentIn() throws {
        let pipe = try #require(WakePipe())
        #expect(pipe.readByte() == nil)
        pipe.write(byte: 15)
        pipe.write(byte: 0)
        pipe.write(byte: 2)
        #expect(pipe.readByte() == 15)
        #expect(pipe.readByte() == 0)
        #expect(pipe.readByte() == 2)
        #expect(pipe.readByte() == nil)
    }

    @Test func writingToAFullPipeNeitherBlocksNorChangesErrno() throws {
        let pipe = try #require(WakePipe())
        // Far more than a pipe holds (64 KiB on Linux): a blocking end would hang the test here.
        for _ in 0..<200_000 { pipe.signal() }
        errno = 1234
        pipe.write(byte: 9)
        #expect(errno == 1234)
        #expect(isReadable(pipe.readFD))
        pipe.drain()
        #expect(!isReadable(pipe.readFD))
    }

    @Test func bothEndsAreNonBlockingAndCloseOnExec() throws {
        let pipe = try #require(WakePipe())
        for fd in [pipe.readFD, pipe.writeFD] {
            #expect(fcntl(fd, F_GETFL, 0) & O_NONBLOCK != 0)
            #expect(fcntl(fd, F_GETFD, 0) & FD_CLOEXEC != 0)
        }
    }

    /// Closed with the value: each end's number is free, or (tests run in parallel, and the kernel hands out the
    /// lowest free number) another test's descriptor now, never this pipe.
    @Test func bothEndsCloseWithTheValue() throws {
        var ends: [(fd: Int32, inode: UInt64)] = []
        do {
            let pipe = try #require(WakePipe())
            for fd in [pipe.readFD, pipe.writeFD] {
                var st = stat()
                #expect(fstat(fd, &st) == 0)
                ends.append((fd, UInt64(st.st_ino)))
            }
        }
        for end in ends {
            var st = stat()
            let open = fstat(end.fd, &st) == 0
            #expect(!open || UInt64(st.st_ino) != end.inode, "descriptor \(end.fd) still holds the pipe")
        }
    }
}
