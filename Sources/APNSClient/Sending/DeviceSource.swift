import APNSCore

/// Yields device tokens one at a time, so a million-line `--devices` file never sits in memory:
/// the sender pulls the next token only when a stream is free.
public protocol DeviceSource: AnyObject {
    /// The next token, or nil when there are no more.
    func next() -> DeviceToken?
    /// The descriptor `next()` would now wait on (a pipe whose writer has not written the next line yet), nil
    /// when it would not. It may read the next token ahead to know; `next()` then returns that one, so the
    /// sender calls `next()` at once after a nil, and never holds a token read here (`--unsent` counts its line
    /// as read).
    func descriptorToWaitFor() -> Int32?
    /// The tokens it still holds and can give without reading (a stream's buffer, the rest of an array): after an
    /// interrupt they are never sent, and are counted and listed as such, not lost. Takes them.
    func takeHeld() -> [DeviceToken]
}

extension DeviceSource {
    /// Tokens in memory or in a regular file never keep `next()` waiting.
    public func descriptorToWaitFor() -> Int32? { nil }
    /// A regular file's rest is read again from the file when needed: nothing held here.
    public func takeHeld() -> [DeviceToken] { [] }
}

/// Tokens already in memory (the `-d` flags, tests).
public final class DeviceArraySource: DeviceSource {
    private let tokens: [DeviceToken]
    private var index = 0

    /// Yields `tokens` in order.
    public init(_ tokens: [DeviceToken]) { self.tokens = tokens }

    /// The next token, nil when done.
    public func next() -> DeviceToken? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    /// The tokens not yet given.
    public func takeHeld() -> [DeviceToken] {
        defer { index = tokens.count }
        return Array(tokens[index...])
    }
}

/// Several sources one after another (`-d` tokens first, then `--devices FILE`).
public final class DeviceChainSource: DeviceSource {
    private let sources: [DeviceSource]
    private var index = 0
    /// The next token, taken to learn that reading it would not wait.
    private var peeked: DeviceToken?

    /// Yields every token of `sources[0]`, then of `sources[1]`, …
    public init(_ sources: [DeviceSource]) { self.sources = sources }

    /// The next token, nil when done.
    public func next() -> DeviceToken? {
        if let token = peeked {
            peeked = nil
            return token
        }
        while index < sources.count {
            if let t = sources[index].next() { return t }
            index += 1
        }
        return nil
    }

    /// The token it peeked, then what each source from the current one holds, in input order.
    public func takeHeld() -> [DeviceToken] {
        var held = peeked.map { [$0] } ?? []
        peeked = nil
        while index < sources.count {
            held += sources[index].takeHeld()
            index += 1
        }
        return held
    }

    /// The source's that holds the next token: one whose tokens ran out is stepped past, which may mean
    /// reading the next one's first.
    public func descriptorToWaitFor() -> Int32? {
        while peeked == nil && index < sources.count {
            if let fd = sources[index].descriptorToWaitFor() { return fd }
            if let token = sources[index].next() { peeked = token } else { index += 1 }
        }
        return nil
    }
}
