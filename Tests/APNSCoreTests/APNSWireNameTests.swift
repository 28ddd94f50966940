import APNSCore
import Testing

/// The header names and paths the sender and the mock share (one definition, so they cannot drift).
@Suite struct APNSWireNameTests {
    @Test(arguments: APNSHeader.allCases)
    func headerNamesAreLowercaseWireNames(_ header: APNSHeader) {
        #expect(header.name == header.name.lowercased())
        let isAPNS = ![.authorization, .contentType].contains(header)
        #expect(header.name.hasPrefix(APNSHeader.apnsPrefix) == isAPNS)
    }

    @Test func devicePaths() {
        #expect(APNSPath.device("3f2a") == "/3/device/3f2a")
        #expect(APNSPath.deviceToken(inPath: "/3/device/3f2a") == "3f2a")
        #expect(APNSPath.deviceToken(inPath: "/3/device/") == "")
        #expect(APNSPath.deviceToken(inPath: "/3/device") == "")
        #expect(APNSPath.deviceToken(inPath: "/3/devices/3f2a") == nil)
        #expect(APNSPath.deviceToken(inPath: "/4/broadcasts/apps/com.x") == nil)
        #expect(APNSPath.broadcast(bundleID: "com.x") == "/4/broadcasts/apps/com.x")
    }
}
