/// A place in a TOML text: 1-based line, and 1-based column counted in UTF-8 bytes, as compilers and
/// `apnsctl validate` count them.
public struct TOMLPosition: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) { (self.line, self.column) = (line, column) }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}

/// A TOML value as the settings need it: every kind TOML 1.0 has (so no valid file is refused), with dates
/// and times kept as their text (no setting takes one; they are only checked for shape and range).
public indirect enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, a local date or a local time, as written.
    case dateTime(String)
    case array([TOMLNode])
    case table(TOMLTable)

    /// The TOML name of this value's type, for messages ("expected a string, found an integer").
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .dateTime: return "a date-time"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// A value with the place it was written: the key's position for a key/value pair or a table header, the
/// value's own for an array element. Every key keeps its line, so messages and origins can name it.
public struct TOMLNode: Sendable, Equatable {
    public let value: TOMLValue
    public let position: TOMLPosition

    public init(_ value: TOMLValue, at position: TOMLPosition) { (self.value, self.position) = (value, position) }
}

/// A TOML table: its keys in the order they were written, each with its node.
public struct TOMLTable: Sendable, Equatable {
    /// Keys in document order, each once.
    public let keys: [String]
    private let nodes: [String: TOMLNode]

    public init(entries: [(String, TOMLNode)]) {
        var keys: [String] = []
        var nodes: [String: TOMLNode] = [:]
        for (key, node) in entries where nodes[key] == nil {
            keys.append(key)
            nodes[key] = node
        }
        (self.keys, self.nodes) = (keys, nodes)
    }

    /// The node under `key`, if any.
    public subscript(key: String) -> TOMLNode? { nodes[key] }

    /// Every key with its node, in document order.
    public var entries: [(key: String, node: TOMLNode)] { keys.compactMap { k in nodes[k].map { (k, $0) } } }
}
