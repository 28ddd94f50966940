/// Why bytes are not JSON, and where: the validator prints it as `FILE:LINE:COLUMN`.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the fault.
    public let offset: Int
    /// 1-based line of the fault.
    public let line: Int
    /// 1-based column of the fault, counted in UTF-8 bytes as compilers do.
    public let column: Int
    /// What was expected and what was found, e.g. `expected ',' or '}' after an object member, found ']'`.
    public let message: String

    /// Makes an error; `line` and `column` come from `TextPosition` so every error agrees on them.
    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`, for logs.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// 1-based line and column of a byte offset; columns count UTF-8 bytes, lines end at `\n`.
public struct TextPosition: Sendable, Equatable {
    /// 1-based line.
    public let line: Int
    /// 1-based column in bytes.
    public let column: Int

    /// Makes a position from known numbers.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Offsets of one document as line and column (1-based; a column counts UTF-8 bytes).
public enum LineTable {
    /// The positions of `offsets` (in any order) in `bytes`, in one pass and without a table: a file of
    /// millions of lines costs no memory for its line starts.
    public static func positions(of offsets: [Int], in bytes: [UInt8]) -> [TextPosition] {
        var result = [TextPosition](repeating: TextPosition(line: 1, column: 1), count: offsets.count)
        var line = 1
        var lineStart = 0
        var i = 0
        for k in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let offset = max(0, offsets[k])
            let limit = min(offset, bytes.count)
            while i < limit {
                if bytes[i] == 0x0A {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
            result[k] = TextPosition(line: line, column: offset - lineStart + 1)
        }
        return result
    }

    /// The position of `offset` in `bytes` without building a table (one lookup).
    public static func position(of offset: Int, in bytes: [UInt8]) -> TextPosition {
        var line = 1
        var lineStart = 0
        let limit = min(max(0, offset), bytes.count)
        var i = 0
        while i < limit {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return TextPosition(line: line, column: max(0, offset) - lineStart + 1)
    }
}
