extension MockState {
    /// `channels.json`: the broadcast channels created on this state dir, kept across restarts.
    public var channelsFile: String { directory + "/channels.json" }
}
