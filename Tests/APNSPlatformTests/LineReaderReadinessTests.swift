import APNSPlatform
import Foundation
import Testing

/// Whether reading the next line would wait: the sender serves its connections instead of waiting in a read
/// on a pipe whose writer is slow.
@Suite struct LineReaderReadinessTests {
    @Test func aPipeWithoutAWholeLineIsWaitedForAndAnythingElseIsNot() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = LineReader(fd: ends[0], ownsDescriptor: true)
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
        // Nothing written yet: a read would wait.
        #expect(reader.descriptorToWaitFor == ends[0])
        send("one\ntwo\n")
        #expect(reader.descriptorToWaitFor == nil)
        #expect(reader.next() == "one")
        // The second line is in the buffer now: no read at all.
        #expect(reader.descriptorToWaitFor == nil)
        #expect(reader.next() == "two")
        #expect(reader.descriptorToWaitFor == ends[0])
        // A line's head is something to read; the reader then waits for its end in `next()`.
        send("thr")
        #expect(reader.descriptorToWaitFor == nil)
        send("ee\n")
        #expect(reader.next() == "three")
        // The writer gone: the end is there to read.
        close(ends[1])
        #expect(reader.descriptorToWaitFor == nil)
        #expect(reader.next() == nil)
        #expect(reader.descriptorToWaitFor == nil)
    }
}
