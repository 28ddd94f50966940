// `fuzzCheck` for the fuzzers scripts/fuzz.sh builds: a broken invariant traps, which is what stops libFuzzer
// (and the mutation driver) and keeps the input that did it. Not part of the package build.

/// Stops the fuzzer with a message when an invariant breaks.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant broken: \(message())") }
}
