/// Hand-built HTTP/2 frames for driving the server session without a client library, so tests can
/// send what a well-behaved client never would (too many streams, garbage) and read frames byte by byte.
enum RawFrames {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4, goAway: UInt8 = 7
    static let endStream: UInt8 = 0x1, endHeaders: UInt8 = 0x4, ack: UInt8 = 0x1

    /// A frame with a 9-byte header.
    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let n = payload.count
        var out: [UInt8] = [UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff), type, flags]
        out += [
            UInt8((stream >> 24) & 0x7f), UInt8((stream >> 16) & 0xff), UInt8((stream >> 8) & 0xff),
            UInt8(stream & 0xff),
        ]
        return out + payload
    }

    /// Client preface plus an empty SETTINGS frame.
    static func clientStart() -> [UInt8] { preface + frame(type: settings, flags: 0, stream: 0, payload: []) }

    static func settingsAck() -> [UInt8] { frame(type: settings, flags: ack, stream: 0, payload: []) }

    /// HPACK integer with an `prefixBits`-bit prefix.
    static func hpackInteger(_ value: Int, prefixBits: Int, firstByte: UInt8) -> [UInt8] {
        let max = (1 << prefixBits) - 1
        if value < max { return [firstByte | UInt8(value)] }
        var out = [firstByte | UInt8(max)]
        var rest = value - max
        while rest >= 128 {
            out.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        out.append(UInt8(rest))
        return out
    }

    /// A header block of literals without indexing and without Huffman coding.
    static func headerBlock(_ fields: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (name, value) in fields {
            out.append(0x00)
            out += hpackInteger(name.utf8.count, prefixBits: 7, firstByte: 0) + Array(name.utf8)
            out += hpackInteger(value.utf8.count, prefixBits: 7, firstByte: 0) + Array(value.utf8)
        }
        return out
    }

    /// HEADERS for a POST to `path` on `stream`, plus `extra` fields.
    static func request(
        stream: UInt32, path: String = "/3/device/00", method: String = "POST",
        extra: [(String, String)] = [], endStream: Bool
    ) -> [UInt8] {
        let fields = [(":method", method), (":scheme", "https"), (":authority", "127.0.0.1"), (":path", path)] + extra
        return frame(
            type: headers, flags: endHeaders | (endStream ? self.endStream : 0), stream: stream,
            payload: headerBlock(fields))
    }

    static func body(stream: UInt32, _ bytes: [UInt8], endStream: Bool) -> [UInt8] {
        frame(type: data, flags: endStream ? self.endStream : 0, stream: stream, payload: bytes)
    }
}

/// A frame parsed from the server's output.
struct ParsedFrame {
    let type: UInt8
    let flags: UInt8
    let stream: UInt32
    let payload: [UInt8]

    /// SETTINGS entries as (id, value).
    var settings: [(UInt16, UInt32)] {
        var out: [(UInt16, UInt32)] = []
        var i = 0
        while i + 6 <= payload.count {
            let id = UInt16(payload[i]) << 8 | UInt16(payload[i + 1])
            out.append((id, Self.uint32(payload, at: i + 2)))
            i += 6
        }
        return out
    }

    static func uint32(_ b: [UInt8], at i: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0..<4 { v = v << 8 | UInt32(b[i + k]) }
        return v
    }

    /// GOAWAY's last stream id, error code and debug text.
    var goAway: (lastStream: UInt32, code: UInt32, debug: String)? {
        guard type == RawFrames.goAway, payload.count >= 8 else { return nil }
        let last = Self.uint32(payload, at: 0) & 0x7fff_ffff
        let code = Self.uint32(payload, at: 4)
        return (last, code, String(decoding: payload[8...], as: UTF8.self))
    }

    static func parseAll(_ bytes: [UInt8]) -> [ParsedFrame] {
        var out: [ParsedFrame] = []
        var i = 0
        while i + 9 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + n <= bytes.count else { break }
            let stream = uint32(bytes, at: i + 5) & 0x7fff_ffff
            out.append(
                ParsedFrame(
                    type: bytes[i + 3], flags: bytes[i + 4], stream: stream,
                    payload: Array(bytes[(i + 9)..<(i + 9 + n)])))
            i += 9 + n
        }
        return out
    }
}
