/// A resolved value and where it came from.
public struct Sourced<Value: Sendable & Equatable>: Sendable, Equatable {
    public let value: Value
    public let origin: SettingOrigin

    public init(_ value: Value, from origin: SettingOrigin) { (self.value, self.origin) = (value, origin) }
}
