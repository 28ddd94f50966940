import APNSCore

/// The keys that decide pushes, read by type: a value of another type is a malformed build, said as one. Read as
/// absent, an `aps-environment` array sent the user to enable a capability the app has, and a `get-task-allow`
/// string made a development profile an App Store one.
extension PropertyListNode {
    /// The string under `key`; nil when the key is absent.
    func string(_ key: String, in name: String) throws(AppBuildProblem) -> String? {
        try typed(key, in: name, expected: "a string") { $0.string }
    }

    /// The Boolean under `key`; nil when the key is absent.
    func bool(_ key: String, in name: String) throws(AppBuildProblem) -> Bool? {
        try typed(key, in: name, expected: "a Boolean (<true/> or <false/>)") { $0.bool }
    }

    /// The array under `key`; nil when the key is absent.
    func items(_ key: String, in name: String) throws(AppBuildProblem) -> [PropertyListNode]? {
        try typed(key, in: name, expected: "an array") { $0.items }
    }

    /// The date under `key` as seconds since 1970; nil when the key is absent, or beyond the dates this libplist
    /// reads (see `date`).
    func date(_ key: String, in name: String) throws(AppBuildProblem) -> Int64? {
        guard let node = self[key] else { return nil }
        guard node.isDate else { throw Self.wrongType(key, node, expected: "a date", in: name) }
        return node.date
    }

    private func typed<Value>(
        _ key: String, in name: String, expected: String, _ read: (PropertyListNode) -> Value?
    ) throws(AppBuildProblem) -> Value? {
        guard let node = self[key] else { return nil }
        guard let value = read(node) else { throw Self.wrongType(key, node, expected: expected, in: name) }
        return value
    }

    private static func wrongType(_ key: String, _ node: PropertyListNode, expected: String, in name: String)
        -> AppBuildProblem
    {
        .corrupt(
            path: name,
            reason: "\(key) is \(node.typeName), not \(expected); correct it and build again")
    }
}
