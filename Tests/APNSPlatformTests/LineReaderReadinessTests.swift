import APNSPlatform
import Foundation
import Testing

/// Whether reading the next line would wait: the sender serves its connections instead of waiting in a read
/// on a pipe whose writer is slow.
@Suite struct LineReaderReadinessTests {
    @Test func aPipeWithoutAWholeLineIsWaitedForAndAnythingElseIsNot() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = LineReader(fd: ends[0], ownsDescriptor: true)
        func send(_ text: String) { #expect(posixWriteAll(ends[1], Array(text.utf8)) == nil) }
        // Nothing written yet: a read would wait.
        #expect(reader.descriptorToWaitFor() == ends[0])
        send("one\ntwo\n")
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == "one")
        // The second line is in the buffer now: no read at all.
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == "two")
        #expect(reader.descriptorToWaitFor() == ends[0])
        // A line's head without its end: read, and its end still waited for.
        send("thr")
        #expect(reader.descriptorToWaitFor() == ends[0])
        send("ee\n")
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == "three")
        // The writer gone: the end is there to read.
        close(ends[1])
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == nil)
        #expect(reader.descriptorToWaitFor() == nil)
    }

    /// A line longer than the buffer: its head is a line, its rest (however it comes) is not, and the line after
    /// it is waited for as any other.
    @Test func theRestOfALineTooLongIsNotALine() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = LineReader(fd: ends[0], ownsDescriptor: true, bufferSize: 16)
        func send(_ text: String) { #expect(posixWriteAll(ends[1], Array(text.utf8)) == nil) }
        send(String(repeating: "x", count: 16))
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == String(repeating: "x", count: 16))
        send(String(repeating: "x", count: 20))
        #expect(reader.descriptorToWaitFor() == ends[0])
        send("x\nnext")
        #expect(reader.descriptorToWaitFor() == ends[0])
        send("\n")
        #expect(reader.descriptorToWaitFor() == nil)
        #expect(reader.next() == "next")
        close(ends[1])
    }
}
