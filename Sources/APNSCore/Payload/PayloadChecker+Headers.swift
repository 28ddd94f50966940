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
            error(
                root, at: 0,
                "topic \(JSONWriter.quoted(topic)) lacks the \"\(suffix)\" suffix that \(pushType.rawValue) pushes need; use \(names.topic) \(base)\(suffix)",
                flag: "\(names.topic) \(topic)")
        } else if suffix.isEmpty, pushType != .mdm, let other {
            warning(
                root, at: 0,
                "topic \(JSONWriter.quoted(topic)) ends with \"\(other.topicSuffix)\", the suffix of \(other.rawValue) pushes, but this is \(pushType.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(pushType.rawValue) push; use \(names.pushType) \(other.rawValue) or the bare bundle id",
                flag: "\(names.topic) \(topic)")
        }
    }
}
