/// The setting flags as the argument parser left them, as plain optionals: nil (or false, or empty) means
/// "not given", so a default never looks like a choice. The commands fill it from their option groups; the
/// resolver reads it through `raw(_:)` by the setting's name. Values stay text so that a flag, a variable and
/// a profile are checked by the same parser and its errors name the flag.
public struct SettingFlags: Sendable, Equatable {
    public var profile: String?
    public var config: String?
    public var cert: String?
    public var key: String?
    public var authKey: String?
    public var keyID: String?
    public var teamID: String?
    public var passphrase: String?
    public var passphraseFile: String?
    public var noTokenCache = false
    public var env: String?
    public var endpoint: [String] = []
    public var port: String?
    public var proxy: String?
    public var noproxy: String?
    public var caFile: String?
    public var insecure = false
    public var concurrency: String?
    public var timeout: String?
    public var topic: String?
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    public var sizeLimit: String?
    public var minify = false
    public var resendUnknown = false
    public var storage: String?
    public var failWithin: String?
    public var output: String?
    public var quiet = false
    public var color: String?
    public var verbose = false

    public init() {}

    /// The flag's value for the setting called `name`, if it was given. A repeatable flag (`endpoint`) gives
    /// each of its values (the parser reads them as one list).
    public func raw(_ name: String) -> [String]? {
        func one(_ s: String?) -> [String]? { s.map { [$0] } }
        func on(_ b: Bool) -> [String]? { b ? ["true"] : nil }
        switch name {
        case "cert": return one(cert)
        case "key": return one(key)
        case "auth-key": return one(authKey)
        case "key-id": return one(keyID)
        case "team-id": return one(teamID)
        case "passphrase": return one(passphrase)
        case "passphrase-file": return one(passphraseFile)
        case "no-token-cache": return on(noTokenCache)
        case "env": return one(env)
        case "endpoint": return endpoint.isEmpty ? nil : endpoint
        case "port": return one(port)
        case "proxy": return one(proxy)
        case "noproxy": return one(noproxy)
        case "ca-file": return one(caFile)
        case "insecure": return on(insecure)
        case "concurrency": return one(concurrency)
        case "timeout": return one(timeout)
        case "topic": return one(topic)
        case "push-type": return one(pushType)
        case "priority": return one(priority)
        case "expiration": return one(expiration)
        case "size-limit": return one(sizeLimit)
        case "minify": return on(minify)
        case "resend-unknown": return on(resendUnknown)
        case "storage": return one(storage)
        case "fail-within": return one(failWithin)
        case "output": return one(output)
        case "quiet": return on(quiet)
        case "color": return one(color)
        case "verbose": return on(verbose)
        default: return nil
        }
    }
}
