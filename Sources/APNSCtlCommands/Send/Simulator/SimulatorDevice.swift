import APNSCore

/// A simulator as `xcrun simctl list devices -j` lists it.
struct SimulatorDevice: Equatable {
    let name: String
    let udid: String
    let state: String
    /// `com.apple.CoreSimulator.SimRuntime.iOS-18-2`, as listed.
    let runtime: String

    var isBooted: Bool { state == "Booted" }

    /// `iOS 18.2` from the runtime's identifier.
    var runtimeName: String {
        let last = runtime.split(separator: ".").last.map(String.init) ?? runtime
        guard let dash = last.firstIndex(of: "-") else { return last }
        return last[..<dash] + " " + last[last.index(after: dash)...].replacingDashes()
    }

    /// Every device in simctl's JSON (`{"devices":{"RUNTIME":[{"name":…,"udid":…,"state":…}]}}`); nil when the
    /// text is not that.
    static func list(_ json: [UInt8]) -> [SimulatorDevice]? {
        guard let root = try? JSONReader.parse(json), let byRuntime = root.member("devices")?.value.members else {
            return nil
        }
        var devices: [SimulatorDevice] = []
        for runtime in byRuntime {
            for device in runtime.value.elements ?? [] {
                guard let name = device.member("name")?.value.string, let udid = device.member("udid")?.value.string
                else {
                    continue
                }
                devices.append(
                    SimulatorDevice(
                        name: name, udid: udid, state: device.member("state")?.value.string ?? "", runtime: runtime.key)
                )
            }
        }
        return devices
    }
}

extension Substring {
    fileprivate func replacingDashes() -> String { String(map { $0 == "-" ? "." : $0 }) }
}
