/// The elements of an array, or the members of an object, already read and checked, found by walking its bytes,
/// not a tree: a huge array or object is gone through in constant memory, each child handed over by its byte range.
enum JSONChildScan {
    /// Calls `body` with the range of each element of the array at `range` of `source` (valid JSON).
    static func forEachElement(in source: [UInt8], array range: Range<Int>, _ body: (Range<Int>) -> Void) {
        source.withUnsafeBufferPointer { bytes in
            var i = skipWhitespace(bytes, from: range.lowerBound + 1)
            while i < range.upperBound, bytes[i] != UInt8(ascii: "]") {
                let end = valueEnd(bytes, from: i)
                body(i..<end)
                i = skipWhitespace(bytes, from: end)
                if i < range.upperBound, bytes[i] == UInt8(ascii: ",") { i = skipWhitespace(bytes, from: i + 1) }
            }
        }
    }

    /// Calls `body` with the range of each member of the object at `range` of `source` (valid JSON): its key
    /// (quotes included) and its value.
    static func forEachMember(
        in source: [UInt8], object range: Range<Int>, _ body: (_ key: Range<Int>, _ value: Range<Int>) -> Void
    ) {
        source.withUnsafeBufferPointer { bytes in
            var i = skipWhitespace(bytes, from: range.lowerBound + 1)
            while i < range.upperBound, bytes[i] == UInt8(ascii: "\"") {
                let keyEnd = valueEnd(bytes, from: i)
                // The ':' and the whitespace around it.
                let valueStart = skipWhitespace(bytes, from: skipWhitespace(bytes, from: keyEnd) + 1)
                let valueEnd = valueEnd(bytes, from: valueStart)
                body(i..<keyEnd, valueStart..<valueEnd)
                i = skipWhitespace(bytes, from: valueEnd)
                if i < range.upperBound, bytes[i] == UInt8(ascii: ",") { i = skipWhitespace(bytes, from: i + 1) }
            }
        }
    }

    /// Just past the valid JSON value that starts at `start`.
    private static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        var depth = 0
        repeat {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                i += 1
            default:
                guard depth == 0 else {
                    i += 1
                    continue
                }
                // A number or a literal: it ends at a delimiter (or the end of a top-level value).
                while i < bytes.count, !isDelimiter(bytes[i]) { i += 1 }
            }
        } while depth > 0
        return i
    }

    private static func isDelimiter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
            return true
        default: return false
        }
    }

    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }
}
