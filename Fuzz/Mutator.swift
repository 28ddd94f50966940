// Seeded random mutation of seed inputs, shared by the fallback fuzzer (Mutation/main.swift, `make fuzz` without
// libFuzzer) and the in-process runs in `make test` (InProcess/), so both explore inputs the same way and a
// fixed seed replays the same inputs.

/// xorshift64* over a fixed or given seed: the same seed gives the same inputs on every machine.
struct Mutator {
    private var state: UInt64
    /// Pieces spliced into inputs: the syntax of the format under test, and bytes that break UTF-8.
    let tokens: [[UInt8]]
    let seeds: [[UInt8]]

    init(seed: UInt64, seeds: [[UInt8]], tokens: [String]) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
        self.seeds = seeds.isEmpty ? [[]] : seeds
        self.tokens =
            tokens.map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], [0x00], [0x0D]]
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func random(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return bound <= 0 ? 0 : Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
    }

    /// One seed with one to nine random edits: a byte changed, a token inserted, a run deleted, a piece of
    /// another seed spliced in, a run repeated (long keys, deep nesting), or the end cut off.
    mutating func next() -> [UInt8] {
        var input = seeds[random(seeds.count)]
        for _ in 0...random(8) {
            switch random(6) {
            case 0 where !input.isEmpty: input[random(input.count)] = UInt8(truncatingIfNeeded: random(256))
            case 1: input.insert(contentsOf: tokens[random(tokens.count)], at: random(input.count + 1))
            case 2 where !input.isEmpty:
                let start = random(input.count)
                input.removeSubrange(start..<min(input.count, start + 1 + random(16)))
            case 3:
                let other = seeds[random(seeds.count)]
                if !other.isEmpty {
                    let from = random(other.count)
                    input.insert(
                        contentsOf: other[from..<min(other.count, from + random(64))], at: random(input.count + 1))
                }
            case 4 where !input.isEmpty:
                let start = random(input.count)
                let run = input[start..<min(input.count, start + 1 + random(8))]
                let copies = [Array](repeating: Array(run), count: 1 + random(100)).flatMap { $0 }
                input.insert(contentsOf: copies, at: start)
            default: input = Array(input.prefix(random(input.count + 1)))
            }
        }
        return input
    }
}
