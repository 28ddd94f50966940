// Fallback fuzzer for toolchains without libFuzzer: seeded random mutation of the Payloads/ samples.
// Usage: payload-mutator SECONDS SEED_FILE...

var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: SystemClock.nowMilliseconds())

/// xorshift64*: fast, good enough to pick mutations.
func random(_ bound: Int) -> Int {
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27
    return bound <= 0 ? 0 : Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
}

let tokens: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\uD800", "\\uDC00", "true", "false", "null",
                         "-", "0", "1", "1.0", "1e400", "99999999999999999999", "\"aps\"", "\"alert\"", "\"badge\"",
                         "\"content-available\"", "\"sound\"", "\"event\"", "\"start\"", " ", "\n", "\u{00}", "//", "'"]
    .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], [UInt8](repeating: UInt8(ascii: "["), count: 600)]

let arguments = CommandLine.arguments
let seconds = arguments.count > 1 ? Int(arguments[1]) ?? 60 : 60
var seeds: [[UInt8]] = [Array("{\"aps\":{\"alert\":\"x\"}}".utf8)]
for path in arguments.dropFirst(2) { if let b = try? FileSystem.read(path) { seeds.append(b) } }

let deadline = SystemClock.monotonicNanoseconds() + UInt64(seconds) * 1_000_000_000
var executions = 0
while SystemClock.monotonicNanoseconds() < deadline {
    var input = seeds[random(seeds.count)]
    for _ in 0...random(8) {
        switch random(5) {
        case 0 where !input.isEmpty: input[random(input.count)] = UInt8(truncatingIfNeeded: random(256))
        case 1: input.insert(contentsOf: tokens[random(tokens.count)], at: random(input.count + 1))
        case 2 where !input.isEmpty:
            let start = random(input.count)
            input.removeSubrange(start..<min(input.count, start + 1 + random(16)))
        case 3:
            let other = seeds[random(seeds.count)]
            if !other.isEmpty {
                let from = random(other.count)
                input.insert(contentsOf: other[from..<min(other.count, from + random(64))], at: random(input.count + 1))
            }
        default: input = Array(input.prefix(random(input.count + 1)))
        }
    }
    fuzzOne(input)
    executions += 1
}
StandardStreams.printOut("mutation fuzzer: \(executions) executions in \(seconds) s, no crash\n")
