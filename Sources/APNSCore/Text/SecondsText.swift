/// A duration as messages write it: whole seconds without a fraction (`2 s`), others as they are (`0.5 s`).
public enum SecondsText {
    /// `2`, `0.5`: the number alone, as a flag's value is written (`--timeout 2`).
    public static func number(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// `2 s`, `0.5 s`.
    public static func of(_ seconds: Double) -> String { number(seconds) + " s" }
}
