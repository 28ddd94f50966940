internal import CPlist

/// A property list (XML or binary) parsed by libplist, owned whole: every node read from it is borrowed from
/// this document and lives as long as it does. Built only after `PropertyListShape` has found the nesting
/// safe to hand to libplist.
final class PropertyListDocument {
    private let root: plist_t

    /// Parses `bytes`; `name` says which file (or archive entry) in a problem.
    init(bytes: [UInt8], name: String) throws(AppBuildProblem) {
        if let problem = PropertyListShape.problem(bytes) { throw .corrupt(path: name, reason: problem) }
        guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else {
            throw .corrupt(path: name, reason: "an empty or oversized property list")
        }
        var parsed: plist_t? = nil
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text -> Void in
                // Not plist_from_memory: libplist 2.3 gave it a fourth parameter, while these two kept theirs. Their
                // result (an error code since 2.3, nothing before) is not read: a failure leaves `parsed` nil.
                if bytes.starts(with: Array("bplist00".utf8)) {
                    plist_from_bin(text, UInt32(buffer.count), &parsed)
                } else {
                    plist_from_xml(text, UInt32(buffer.count), &parsed)
                }
            }
        }
        guard let parsed else { throw .corrupt(path: name, reason: "not a property list (XML or binary)") }
        root = parsed
    }

    deinit { plist_free(root) }

    /// The top node.
    var top: PropertyListNode { PropertyListNode(document: self, pointer: root) }
}

/// One node of a `PropertyListDocument`, read as the Swift value a caller asks for; a node of another type
/// reads as nil. The keys that decide pushes are read by key and type (`string(_:in:)` and its siblings), which
/// refuse a value of the wrong type rather than read it as absent.
struct PropertyListNode {
    /// Keeps the document, and so this node's memory, alive.
    let document: PropertyListDocument
    fileprivate let pointer: plist_t

    fileprivate init(document: PropertyListDocument, pointer: plist_t) {
        self.document = document
        self.pointer = pointer
    }

    private var type: plist_type { plist_get_node_type(pointer) }

    /// The node's type as a property list editor names it, with its article: for a wrong type in a message.
    var typeName: String {
        switch type {
        case PLIST_BOOLEAN: return "a Boolean"
        // 1 in every libplist: named PLIST_UINT before 2.3, PLIST_INT since (the old name a macro Swift may not see).
        case plist_type(1): return "an integer"
        case PLIST_REAL: return "a real number"
        case PLIST_STRING: return "a string"
        case PLIST_ARRAY: return "an array"
        case PLIST_DICT: return "a dictionary"
        case PLIST_DATE: return "a date"
        case PLIST_DATA: return "data"
        case PLIST_KEY: return "a key"
        case PLIST_UID: return "a UID"
        default: return "a value of no known type"
        }
    }

    /// A dictionary's value for `key`.
    subscript(key: String) -> PropertyListNode? {
        guard type == PLIST_DICT, let item = plist_dict_get_item(pointer, key) else { return nil }
        return PropertyListNode(document: document, pointer: item)
    }

    var string: String? {
        guard type == PLIST_STRING else { return nil }
        var length: UInt64 = 0
        guard let chars = plist_get_string_ptr(pointer, &length) else { return nil }
        return chars.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
        }
    }

    var bool: Bool? {
        guard type == PLIST_BOOLEAN else { return nil }
        var value: UInt8 = 0
        plist_get_bool_val(pointer, &value)
        return value != 0
    }

    var isDate: Bool { type == PLIST_DATE }

    var isDictionary: Bool { type == PLIST_DICT }

    /// A date as seconds since 1970 (property lists count from 2001); nil beyond the 32-bit seconds this libplist
    /// gives, which it pins at their ends (a date after 2069 read as 1932): no date beats a wrong one.
    var date: Int64? {
        guard type == PLIST_DATE else { return nil }
        var seconds: Int32 = 0
        var micro: Int32 = 0
        plist_get_date_val(pointer, &seconds, &micro)
        guard seconds != .min && seconds != .max else { return nil }
        return Int64(seconds) + 978_307_200
    }

    /// An array's items.
    var items: [PropertyListNode]? {
        guard type == PLIST_ARRAY else { return nil }
        return (0..<plist_array_get_size(pointer)).compactMap { i in
            plist_array_get_item(pointer, i).map { PropertyListNode(document: document, pointer: $0) }
        }
    }

    /// The raw bytes of a data node.
    var data: [UInt8]? {
        guard type == PLIST_DATA else { return nil }
        var length: UInt64 = 0
        guard let bytes = plist_get_data_ptr(pointer, &length) else { return [] }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }
}
