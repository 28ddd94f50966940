import Testing

@testable import APNSCore

/// `JSONKeyOffsets` splits each slot between the key's offset and bits of its hash by the source's length: a
/// source of 2^k − 1 bytes has one more hash bit than one of 2^k. Repeats are found the same on either side of
/// each such boundary, in a table that grew several times before them.
@Suite struct JSONKeyOffsetsTests {
    /// `{"pad":"xx…","k0":0,…,"k499":0,"k7":1,"k123":1,"k499":1}`, exactly `size` bytes: the keys come last, so
    /// their offsets are as large as the source's length allows.
    static func object(size: Int) -> [UInt8] {
        let members = (0..<500).map { "\"k\($0)\":0," }.joined() + "\"k7\":1,\"k123\":1,\"k499\":1}"
        let head = "{\"pad\":\""
        let pad = String(repeating: "x", count: size - head.utf8.count - 2 - members.utf8.count)
        return Array((head + pad + "\"," + members).utf8)
    }

    @Test(arguments: [8191, 8192, 8193, 65535, 65536])
    func repeatsAreFoundWhateverTheSourceLength(size: Int) throws {
        let bytes = Self.object(size: size)
        #expect(bytes.count == size)
        let (root, duplicates) = try JSONReader.parseCollapsingDuplicates(bytes, keeping: nil)
        #expect(duplicates.count == 3)
        #expect(duplicates.listed.map(\.key) == ["k7", "k123", "k499"])
        #expect(root.members?.count == 501)
    }
}
