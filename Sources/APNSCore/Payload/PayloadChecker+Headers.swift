/// Header combinations that are payload-level rules in CLI.md (exit 65): background with priority 10,
/// and a push type whose topic lacks the type's suffix. Reported at `(root)`, line 1, column 1.
extension PayloadChecker {
    /// Checks the priority and topic that would be sent, when the caller knows them.
    mutating func checkHeaders(priority: Priority?, topic: String?) {
        let root = ValidationProblem.rootPath
        if let priority {
            if pushType == .background && priority == .immediate {
                error(
                    root, at: 0,
                    "background pushes must not use priority 10 (APNs rejects or drops them); use \(names.priority) 5 or leave it out",
                    flag: "\(names.priority) \(priority.rawValue)")
            } else if priority == .low && (pushType == .background || pushType == .liveactivity) {
                warning(
                    root, at: 0,
                    "priority 1 never wakes the device, so this \(pushType.rawValue) push may never arrive; use \(names.priority) 5",
                    flag: "\(names.priority) \(priority.rawValue)")
            }
        }
        guard let topic, !topic.isEmpty else { return }
        let suffix = pushType.topicSuffix
        let other = PushType.inferred(fromTopic: topic.lowercased())
        if !suffix.isEmpty && !topic.hasSuffix(suffix) {
            let base = other.map { String(topic.dropLast($0.topicSuffix.count)) } ?? topic
            var use = "\(base)\(suffix)"
            // A near miss typed by hand (`.location` for `.location-query`, `.pushkit`, `.complications`, a `.push-type`
            // part): the suffix added to it is likely no topic, so the bundle id before it is offered first.
            if other == nil, let (ending, bare) = pushType.nearMissOfSuffix(in: base) {
                use = "\(bare)\(suffix) if \"\(ending)\" was meant as the suffix, else \(use)"
            }
            // The suffix in another case (`.VoIP`) is not the suffix: said, as the lower-case one is what APNs matches.
            let caseNote =
                topic.lowercased().hasSuffix(suffix)
                ? " (it ends with \"\(topic.suffix(suffix.count))\", in another case)" : ""
            error(
                root, at: 0,
                "topic \(PrintableText.quoted(topic)) lacks the \"\(suffix)\" suffix that \(pushType.rawValue) pushes need\(caseNote); use \(names.topic) \(use)",
                flag: "\(names.topic) \(topic)")
        } else if suffix.isEmpty, pushType != .mdm, let other, !topic.hasSuffix(other.topicSuffix) {
            // `.VoIP`: another type's suffix in another case, which APNs does not match as that suffix.
            let ending = String(topic.suffix(other.topicSuffix.count))
            let bare = String(topic.dropLast(other.topicSuffix.count))
            warning(
                root, at: 0,
                "topic \(PrintableText.quoted(topic)) ends with \"\(ending)\", the suffix of \(other.rawValue) pushes in another case; for \(other.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(other.rawValue) push use \(names.pushType) \(other.rawValue) and \(names.topic) \(bare)\(other.topicSuffix), else the bare bundle id",
                flag: "\(names.topic) \(topic)")
        } else if suffix.isEmpty, pushType != .mdm, let other {
            warning(
                root, at: 0,
                "topic \(PrintableText.quoted(topic)) ends with \"\(other.topicSuffix)\", the suffix of \(other.rawValue) pushes, but this is \(pushType.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(pushType.rawValue) push; use \(names.pushType) \(other.rawValue) or the bare bundle id",
                flag: "\(names.topic) \(topic)")
        }
    }
}
