/// Bytes that hold nothing but spaces, tabs and line breaks (JSON's whitespace): `echo > file` makes one, and
/// such a file is empty to whoever reads it, whatever a parser says of it.
public enum BlankBytes {
    /// Whether `bytes` are empty or only whitespace.
    public static func areBlank<Bytes: Sequence>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
}
