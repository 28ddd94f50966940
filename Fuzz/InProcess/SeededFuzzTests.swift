import APNSSettings
import APNSTestSupport
import Foundation
import Testing

/// The input being checked, for the message of a broken invariant.
enum FuzzInput {
    @TaskLocal static var current: [UInt8] = []
}

/// `fuzzCheck` in the test build: a broken invariant is a test issue naming the input (as Swift string
/// literal text, to paste into a test).
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        Issue.record(
            "fuzz invariant broken: \(message()); input: \(String(decoding: FuzzInput.current, as: UTF8.self).debugDescription)"
        )
    }
}

/// The fuzz targets of `make fuzz`, run in `make test` for a fixed number of seeded mutations each: the same
/// inputs on every run (a fixed seed), a few seconds in all, and a broken invariant or a crash fails the suite.
/// libFuzzer explores further under `make fuzz`; this keeps every target exercised on each change.
@Suite struct SeededFuzzTests {
    /// The seed of every run; change it to explore other inputs (the failing input is printed).
    static let seed: UInt64 = 0x5EED_0000_2026_0034

    /// The files under `directory` of the repository (sorted, so the run is the same everywhere).
    static func seeds(_ directory: String, extensions: [String]) throws -> [[UInt8]] {
        let dir = Repository.path(directory)
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            .filter { name in extensions.contains { name.hasSuffix($0) } }
            .map { name in
                guard let data = FileManager.default.contents(atPath: dir + "/" + name) else {
                    throw TestSupportError("cannot read \(dir)/\(name)")
                }
                return [UInt8](data)
            }
    }

    /// Each seed, then `iterations` mutations of them, through `target`.
    func run(_ seeds: [[UInt8]], tokens: [String], iterations: Int, _ target: ([UInt8]) -> Void) {
        var mutator = Mutator(seed: Self.seed, seeds: seeds, tokens: tokens)
        for input in seeds + (0..<iterations).map({ _ in mutator.next() }) {
            FuzzInput.$current.withValue(input) { target(input) }
        }
    }

    @Test func tomlReaderAndSettingsFile() throws {
        let seeds = try Self.seeds("Fuzz/Seeds/toml", extensions: [".toml"])
        #expect(seeds.count >= 2)
        for seed in seeds { #expect(throws: Never.self) { _ = try TOMLParser.parse(seed) } }
        #expect(
            try seeds.allSatisfy { try PythonTOML.accepts(String(decoding: $0, as: UTF8.self)) },
            "Python's tomllib refuses a seed")
        run(seeds, tokens: tomlFuzzTokens, iterations: 4000, fuzzTOML)
    }

    @Test func deviceListLines() throws {
        let seeds = try Self.seeds("Fuzz/Seeds/devices", extensions: [".txt"])
        #expect(!seeds.isEmpty)
        run(seeds, tokens: deviceFuzzTokens, iterations: 4000, fuzzDeviceLines)
    }

    @Test func jsonReaderAndValidator() throws {
        let seeds = try Self.seeds("Payloads", extensions: [".json", ".apns"])
        #expect(!seeds.isEmpty)
        run(seeds, tokens: payloadFuzzTokens, iterations: 1500, fuzzOne)
    }
}
