// Fallback fuzzer for toolchains without libFuzzer: seeded random mutation (Fuzz/Mutator.swift) of the seed
// files, for the target chosen as in LibFuzzerEntry.swift. Usage: NAME-mutator SECONDS SEED_FILE...
import Foundation

#if FUZZ_TOML
    let tokens = tomlFuzzTokens
#elseif FUZZ_DEVICES
    let tokens = deviceFuzzTokens
#else
    let tokens = payloadFuzzTokens
#endif

let arguments = CommandLine.arguments
let seconds = arguments.count > 1 ? Int(arguments[1]) ?? 60 : 60
let seeds = arguments.dropFirst(2).compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
var mutator = Mutator(seed: UInt64(Date().timeIntervalSince1970 * 1000), seeds: seeds, tokens: tokens)

let deadline = Date().addingTimeInterval(Double(seconds))
var executions = 0
while Date() < deadline {
    fuzzChosenTarget(mutator.next())
    executions += 1
}
print("mutation fuzzer: \(executions) executions in \(seconds) s, no crash")
