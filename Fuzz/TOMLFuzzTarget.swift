// The TOML fuzz target: the settings file's TOML reader on any bytes, and (in the package build) the settings
// file checks on what it reads. scripts/fuzz.sh compiles it with Sources/APNSSettings/TOML alone.
#if canImport(APNSSettings)
    @testable import APNSSettings
#endif

/// Pieces of TOML the mutator splices in (repeated, they make long keys and deep nesting).
let tomlFuzzTokens = [
    "[", "]", "[[", "]]", "=", " = ", ".", "\"", "'", "\"\"\"", "'''", "{", "}", ",", "\n", "\r\n", "#",
    "\\", "\\u00e9", "\\U0001F600", " ", "\t", "a", "a.b.c.d.e.f.g.h.", "1979-05-27T07:32:00Z", "07:32:00",
    "inf", "nan", "0x", "0o", "0b", "1_000", "1e", "true", "-", "+", "[profiles.dev]", "[[profiles]]",
    "[devices]", "default-profile = ", "x = [", "x = {",
]

/// Reads `bytes` as TOML, checking what must hold for any input: an error has a position inside the text
/// and a one-line message; a document that is read nests at most 64 levels.
func fuzzTOML(_ bytes: [UInt8]) {
    let lines = 1 + bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    do {
        let root = try TOMLParser.parse(bytes)
        fuzzCheck(tomlLevels(root) <= 64, "a document nested \(tomlLevels(root)) levels deep was read")
    } catch {
        fuzzCheck(
            error.position.line >= 1 && error.position.line <= lines,
            "error line \(error.position.line) outside 1...\(lines)")
        fuzzCheck(error.position.column >= 1, "error column \(error.position.column)")
        fuzzCheck(
            !error.message.isEmpty && !error.message.contains("\n"), "error message not one line: \(error.message)")
    }
    #if canImport(APNSSettings)
        do { _ = try SettingsFile.parse(bytes, path: "fuzz.toml") } catch {
            fuzzCheck(!error.message.isEmpty, "settings problem without a message")
        }
    #endif
}

/// How many levels (key names and array positions) the deepest value of `table` sits below it.
func tomlLevels(_ table: TOMLTable) -> Int {
    table.entries.map { 1 + tomlLevels($0.node.value) }.max() ?? 0
}

func tomlLevels(_ value: TOMLValue) -> Int {
    switch value {
    case .table(let t): return tomlLevels(t)
    case .array(let items): return items.map { 1 + tomlLevels($0.value) }.max() ?? 0
    default: return 0
    }
}
