import Testing

@testable import APNSPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `FileSystem.waitingInput`: what waits on a descriptor, looked at without taking it, so the reader after it
/// (`send -`, a `while read` loop) still gets every byte.
@Suite struct WaitingInputTests {
    @Test func aPipesBytesAreSeenAndStayForTheReader() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array(#"{"aps":{"alert":"x"}}"#.utf8)
        #expect(posixWriteAll(ends[1], text) == nil)
        #if os(Linux)
            #expect(FileSystem.waitingInput(ends[0], count: 4) == Array(text.prefix(4)))
            #expect(FileSystem.waitingInput(ends[0], count: 256) == text)
        #endif
        close(ends[1])
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(ends[0], $0.baseAddress, 64) }
            guard n > 0 else { break }
            read += buffer[..<n]
        }
        #expect(read == text, "every byte is still there for the reader")
        #expect(FileSystem.waitingInput(ends[0], count: 16).isEmpty, "a pipe read to its end holds nothing")
    }

    /// A file redirected in (`< file`): its bytes from where the reader stands, and none once it is read to its end.
    @Test func aFileShowsWhatIsLeftOfIt() throws {
        let scratch = try FileSystemDirectoriesTests.Scratch()
        let path = scratch.path + "/in.json"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(posixWriteAll(fd, Array("abcdef".utf8)) == nil)
        #expect(lseek(fd, 2, SEEK_SET) == 2)
        #expect(FileSystem.waitingInput(fd, count: 16) == Array("cdef".utf8))
        #expect(lseek(fd, 0, SEEK_CUR) == 2, "the reader's place is kept")
        #expect(lseek(fd, 0, SEEK_END) == 6)
        #expect(FileSystem.waitingInput(fd, count: 16).isEmpty)
    }

    @Test func anEmptyPipeAndAClosedDescriptorHoldNothingAndDoNotWait() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        #expect(FileSystem.waitingInput(ends[0], count: 16).isEmpty)
        #expect(FileSystem.waitingInput(-1, count: 16).isEmpty)
    }
}
