import APNSClient
import APNSCore
import APNSHistory
import APNSPlatform
import APNSSettings

/// What `history`'s flags take: a time (`--since`, `--before`), a device (token or name) and the format.
enum HistoryTime {
    /// A duration ago (`2h`, `30m`, `7d`), a date (`2026-11-28`, local midnight), a local date and time
    /// (`2026-11-28 18:02`) or an ISO 8601 time with its zone (`2026-11-28T18:02:00Z`, `…+05:00`), as UNIX seconds.
    /// Anything else is refused: `history clear --before` removes by it, so a zone or a field it cannot read must not
    /// quietly become another time.
    static func parse(_ text: String, flag: String, in world: CommandWorld) throws(CLIError) -> Int64 {
        let trimmed = text.trimmingBlanks()
        if let problem = signedDurationProblem(trimmed, flag: flag) { throw .usage(problem) }
        // Times no send has: said as out of range, not as text that is no time.
        let noSendThatOld = "earlier than any send; give a later time, or leave \(flag) out"
        if let seconds = RequestDefaults.durationSeconds(trimmed) {
            // Nine digits of days or weeks go back past 1970, which a date is refused for too.
            let time = world.clock.now() - seconds
            guard time >= 0 else {
                throw .usage("\(flag) \(PrintableText.quoted(text)): before 1970, \(noSendThatOld)")
            }
            return time
        }
        if TimeValue.isDurationTooLarge(trimmed) {
            throw .usage(
                "\(flag) \(PrintableText.quoted(text)): too long ago (at most 9 digits before the unit, and "
                    + "999999999s is 31 years), \(noSendThatOld)")
        }
        if let date = ISO8601Date(trimmed), date.epochSeconds < 0 {
            throw .usage("\(flag) \(PrintableText.quoted(text)): before 1970, \(noSendThatOld)")
        }
        if let date = ISO8601Date(trimmed) {
            if date.hasZone { return date.epochSeconds }
            // Checked whole above (calendar fields too): its numbers are the local wall time's fields.
            let digits = trimmed.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if digits.count >= 3,
                let local = LocalTime.epochSeconds(
                    year: digits[0], month: digits[1], day: digits[2], hour: digits.count > 3 ? digits[3] : 0,
                    minute: digits.count > 4 ? digits[4] : 0)
            {
                return local + Int64(digits.count > 5 ? digits[5] : 0)
            }
        }
        throw .usage(
            "\(flag) \(PrintableText.quoted(text)): not a time; give a duration ago (30m, 2h, 7d), a local date or time (2026-11-28, 2026-11-28 18:02) or one with its zone (2026-11-28T18:02:00Z, 2026-11-28T18:02:00+05:00)"
        )
    }

    /// `-2h` or `+2h`: a duration here already counts back from now, so a sign could mean either way (`clear
    /// --before` removes by it): refused, with the unsigned one to write; nil for any other text.
    static func signedDurationProblem(_ text: String, flag: String) -> String? {
        let trimmed = text.trimmingBlanks()
        guard let sign = trimmed.first, sign == "-" || sign == "+",
            RequestDefaults.durationSeconds(String(trimmed.dropFirst())) != nil
        else { return nil }
        let unsigned = String(trimmed.dropFirst())
        return "\(flag) \(PrintableText.quoted(text)): a duration here already counts back from now (\(unsigned) ago); "
            + "write \(flag) \(unsigned)"
    }

    /// The settings file's device name closest to `name`, for a `--device` that matched nothing; nil when `name`
    /// is a token, is one of the names, or none is close. A file that cannot be read has none (the match said why).
    static func closestDeviceName(to name: String, settings: ConfigFileOptions, in world: CommandWorld) -> String? {
        guard (try? DeviceToken(parsing: name)) == nil, !HistoryQuery.isShortenedToken(name),
            let input = try? settings.input(for: .send, world: world.settings),
            let file = try? input.parsedFile()
        else { return nil }
        let names = DeviceNames.allNames(in: file)
        let trimmed = name.trimmingBlanks()
        guard !names.contains(trimmed) else { return nil }
        return Suggestion.closest(to: trimmed, among: names)
    }

    /// `--reason` that names no APNs reason (in any case): the closest one, or nil when it is one or none is close.
    static func closestReason(to reason: String) -> String? {
        let names = APNSReason.allCases.map(\.rawValue)
        guard !names.contains(where: { $0.lowercased() == reason.lowercased() }) else { return nil }
        return Suggestion.closest(to: reason, among: names)
    }

    /// `--device`: a token as the history keeps it (lowercase hex, Xcode's form accepted), else a name as given.
    static func deviceFilter(_ text: String, in world: CommandWorld) throws(CLIError) -> String {
        if let token = try? DeviceToken(parsing: text) { return token.hex }
        // A name as send reads it, so `-d " my-phone"` and `--device my-phone` are one device.
        return text.trimmingBlanks()
    }

    /// The tokens `name` stands for in the settings file (`--config`, else `APNSCTL_CONFIG`, else the default
    /// one), in `[devices]` or any profile's own (the history does not keep which profile a send used): a send
    /// made with the token itself was for that device too. A file that cannot be read adds none, with a warning
    /// saying why; the history itself is read without settings.
    static func tokens(named name: String, settings: ConfigFileOptions, in world: CommandWorld) -> [String] {
        // A token, whole or shortened, is not looked up: no name is made of hex digits.
        guard (try? DeviceToken(parsing: name)) == nil, !HistoryQuery.isShortenedToken(name) else { return [] }
        let skipped = { (why: String) -> [String] in
            world.standardError.warning(
                "--device \(PrintableText.quoted(name)): the settings file's device names were not looked up: \(why)")
            return []
        }
        let input: SettingsInput
        do { input = try settings.input(for: .send, world: world.settings) } catch {
            return skipped(error.message ?? "it could not be read")
        }
        let file: SettingsFile
        do {
            guard let parsed = try input.parsedFile() else { return [] }
            file = parsed
        } catch { return skipped(error.message) }
        return DeviceNames.tokens(named: name, in: file)
    }
}
