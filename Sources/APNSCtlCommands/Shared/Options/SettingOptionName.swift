import APNSSettings
import ArgumentParser

/// A setting's long flag, named from its key, so the name is written once (in `SettingCatalog.swift`).
extension NameSpecification.Element {
    static func setting<Value>(_ key: SettingKey<Value>) -> NameSpecification.Element { .customLong(key.name) }
}

extension NameSpecification {
    static func setting<Value>(_ key: SettingKey<Value>) -> NameSpecification { [.customLong(key.name)] }
}
