/// `send -d T1 -d T2 …` with thousands of tokens: the argument parser handles a repeated option in time
/// quadratic in its count (each match removes its element from an array and merges a growing set of input
/// positions; 4,000 `-d` took 25 s). The tokens are taken out of the command line here, in one linear walk,
/// and handed to `send` after parsing, so 10,000 `-d` flags parse in well under a second.
enum DeviceFlagArguments {
    /// The spellings of `send`'s device flag.
    static let names: Set<String> = ["-d", "--device"]

    /// Splits `send`'s arguments (after the command word) into the device tokens given with `-d TOKEN`,
    /// `--device TOKEN` or `--device=TOKEN`, in order, and the other arguments for the parser. Anything the
    /// parser must judge stays with it: a flag with no value or a value that looks like a flag, and every
    /// argument after `--`.
    static func extract(_ arguments: [String]) -> (tokens: [String], rest: [String]) {
        var tokens: [String] = []
        var rest: [String] = []
        rest.reserveCapacity(arguments.count)
        var index = arguments.startIndex
        var valueOfPrevious = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                rest.append(contentsOf: arguments[index...])
                break
            }
            // The word after an option that takes a value is that value as far as the parser goes, even `-d`
            // (`--title -d TOKEN` is the parser's usage error, never a title taken from what follows).
            if valueOfPrevious {
                valueOfPrevious = false
                rest.append(argument)
                index += 1
                continue
            }
            if names.contains(argument), index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("-") {
                tokens.append(arguments[index + 1])
                index += 2
                continue
            }
            if argument.hasPrefix("--device="), argument.count > "--device=".count {
                tokens.append(String(argument.dropFirst("--device=".count)))
            } else {
                rest.append(argument)
                valueOfPrevious = takesValue(argument)
            }
            index += 1
        }
        return (tokens, rest)
    }

    /// Whether `argument` is one of `send`'s options that take the next word as their value.
    private static func takesValue(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), !argument.contains("="), let n = SendQuickParser.index[argument] else { return false }
        return SendQuickParser.arguments[n].kind != .flag
    }
}
