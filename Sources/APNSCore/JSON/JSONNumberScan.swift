/// The numbers of a JSON value already read and checked, found by walking its bytes, not a tree: what the
/// content-state rule reads of arbitrary user data, in memory bounded by the nesting depth whatever its size.
/// Every copy of a repeated key is walked (a tree keeps only the last).
enum JSONNumberScan {
    /// Where the walk stands in one open container: an object's current key (offset of its quote) or an
    /// array's current index.
    private enum Frame {
        case object(keyStart: Int?)
        case array(index: Int)
    }

    /// Calls `body` with each number literal's range in `source[range]` (a valid JSON value) and a function
    /// that spells its path below `path` (`path.key[2].at`), asked for only when a number is reported. With
    /// `strings`, each string value's range too (quotes included, so it starts with `"`; keys are not values).
    static func forEachNumber(
        in source: [UInt8], _ range: Range<Int>, path: String, strings: Bool = false,
        _ body: (Range<Int>, () -> String) -> Void
    ) {
        var stack: [Frame] = []
        var expectsKey = false
        var i = range.lowerBound
        func spell(_ stack: [Frame]) -> String {
            var parser = JSONParser(bytes: source)
            parser.keptLimit = JSONReader.keptTextLimit
            var out = path
            for frame in stack {
                switch frame {
                case .object(let keyStart?):
                    parser.index = keyStart
                    out += "." + ((try? parser.readString()).map(JSONParser.shown) ?? "")
                case .object(nil): break
                case .array(let index): out += "[\(index)]"
                }
            }
            return out
        }
        while i < range.upperBound {
            let b = source[i]
            switch b {
            case UInt8(ascii: "{"):
                stack.append(.object(keyStart: nil))
                expectsKey = true
                i += 1
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                expectsKey = false
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // An empty object ends still expecting a key; the next string is then its parent's value.
                stack.removeLast()
                expectsKey = false
                i += 1
            case UInt8(ascii: ","):
                if case .array(let index)? = stack.last {
                    stack[stack.count - 1] = .array(index: index + 1)
                } else {
                    expectsKey = true
                }
                i += 1
            case UInt8(ascii: "\""):
                let start = i
                i += 1
                while i < range.upperBound, source[i] != UInt8(ascii: "\"") {
                    i += source[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i += 1
                if expectsKey {
                    stack[stack.count - 1] = .object(keyStart: start)
                    expectsKey = false
                } else if strings {
                    body(start..<min(i, range.upperBound)) { spell(stack) }
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                while i < range.upperBound, isNumberByte(source[i]) { i += 1 }
                body(start..<i) { spell(stack) }
            default:
                i += 1  // whitespace, ':', the letters of true, false and null
            }
        }
    }

    private static func isNumberByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }
}
