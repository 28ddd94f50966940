// libFuzzer's entry point (built with `swiftc -sanitize=fuzzer`), for the target scripts/fuzz.sh chose with
// -D FUZZ_TOML or -D FUZZ_DEVICES (else the payload target).

/// Runs the chosen target on one input.
func fuzzChosenTarget(_ bytes: [UInt8]) {
    #if FUZZ_TOML
        fuzzTOML(bytes)
    #elseif FUZZ_DEVICES
        fuzzDeviceLines(bytes)
    #else
        fuzzOne(bytes)
    #endif
}

/// Called by libFuzzer for each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzzChosenTarget(bytes)
    return 0
}
