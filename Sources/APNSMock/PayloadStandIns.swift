// TEMPORARY stand-ins for APNSCore's JSONReader/JSONWriter (branch `payload`), removed when it is merged.

/// Stand-in: a value that only knows whether it is an object.
struct JSONValue { let isObject: Bool }

/// Stand-in: accepts bodies shaped like `{…}` only.
enum JSONReader {
    struct Failure: Error {}
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        let trimmed = bytes.drop { $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }
        guard trimmed.first == UInt8(ascii: "{"), bytes.last(where: { $0 > 32 }) == UInt8(ascii: "}") else { throw Failure() }
        return JSONValue(isObject: true)
    }
}

/// Stand-in: just enough of the JSON writer for the mock's bodies and log lines.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var first: [Bool] = []
    private var afterKey = false
    init() {}
    var text: String { String(decoding: bytes, as: UTF8.self) }
    mutating func beginObject() { separate(); bytes.append(123); first.append(true) }
    mutating func endObject() { bytes.append(125); _ = first.popLast() }
    mutating func key(_ name: String) { separate(); quote(name); bytes.append(58); afterKey = true }
    mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json) }
    mutating func field(_ name: String, _ value: String?) { key(name); if let value { separate(); quote(value) } else { raw(Array("null".utf8)) } }
    mutating func field(_ name: String, _ value: Int?) { key(name); raw(Array((value.map { String($0) } ?? "null").utf8)) }
    private mutating func separate() {
        if afterKey { afterKey = false; return }
        guard let last = first.indices.last else { return }
        if first[last] { first[last] = false } else { bytes.append(44) }
    }
    private mutating func quote(_ s: String) {
        bytes.append(34)
        for c in s.utf8 {
            switch c {
            case 34: bytes += [92, 34]
            case 92: bytes += [92, 92]
            case 0..<32: bytes += Array("\\u00".utf8) + [hex(c >> 4), hex(c & 15)]
            default: bytes.append(c)
            }
        }
        bytes.append(34)
    }
    private func hex(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 87 + v }
}

import APNSCrypto

/// Stand-in until the credentials branch's `X509Certificate.info` is merged: no topics, no environments.
enum MockCertificateReader {
    static func read(_ certificate: X509Certificate, trusted: Bool) -> PresentedCertificate {
        PresentedCertificate(trusted: trusted, topics: [], environments: [])
    }
}
