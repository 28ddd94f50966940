/// Duplicate-key bookkeeping for objects: which members repeat an earlier key, and which copy
/// of each key counts (the last, as most parsers keep). Keys compare by UTF-8 bytes.
extension JSONValue {
    /// For each member whose key appeared earlier: (index of the repeat, index of the first copy). A cut key
    /// (`JSONMember.keyCutLength`) repeats none: only the checking parse cuts keys, and it has already collapsed
    /// the repeats, comparing them whole.
    public static func duplicateKeys(in members: [JSONMember]) -> [(repeat: Int, first: Int)] {
        guard members.count > 1 else { return [] }
        var result: [(repeat: Int, first: Int)] = []
        if members.count <= 16 {
            for i in 1..<members.count where members[i].keyCutLength == nil {
                let first = (0..<i).first {
                    members[$0].keyCutLength == nil && members[$0].key.utf8.elementsEqual(members[i].key.utf8)
                }
                if let j = first { result.append((i, j)) }
            }
            return result
        }
        var firstIndex: [[UInt8]: Int] = [:]
        for (i, m) in members.enumerated() where m.keyCutLength == nil {
            let k = Array(m.key.utf8)
            if let j = firstIndex[k] { result.append((i, j)) } else { firstIndex[k] = i }
        }
        return result
    }

    /// The members that count: the last copy of each key, in source order.
    public static func effectiveMembers(_ members: [JSONMember]) -> [JSONMember] {
        let repeats = duplicateKeys(in: members)
        guard !repeats.isEmpty else { return members }
        var superseded = Set<Int>()
        var lastOf: [Int: Int] = [:]  // first index -> latest index seen
        for (r, f) in repeats {
            superseded.insert(lastOf[f] ?? f)
            lastOf[f] = r
        }
        return members.enumerated().filter { !superseded.contains($0.offset) }.map(\.element)
    }
}
