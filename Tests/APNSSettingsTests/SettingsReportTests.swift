import APNSTestSupport
import Testing

@testable import APNSSettings

/// What `config show`, `config list` and `-v` print, in-process: the same values and origins, no secret.
@Suite struct SettingsReportTests {
    static let pem = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49SECRETBODY\n-----END PRIVATE KEY-----\n"

    static func resolved() throws -> ResolvedSettings {
        try SettingsResolverTests.resolve(variables: [
            "APNSCTL_PRIORITY": "5", "APNSCTL_PASSPHRASE": "hunter2",
            "APNSCTL_PROXY": "http://user:pw-secret@proxy:3128",
        ])
    }

    @Test func verboseAndShowAgree() throws {
        let r = try Self.resolved()
        let verbose = SettingsReport.verboseLines(r)
        let path = SettingsResolverTests.path
        #expect(verbose.first == "* profile dev (default-profile, \(path):1)")
        #expect(verbose.contains("* topic com.example.app (profile dev, \(path):6)"))
        #expect(verbose.contains("* priority 5 (APNSCTL_PRIORITY)"))
        #expect(verbose.contains("* passphrase (hidden) (APNSCTL_PASSPHRASE)"))
        #expect(verbose.contains("* proxy http://user:***@proxy:3128 (APNSCTL_PROXY)"))
        #expect(!verbose.contains { $0.hasPrefix("* timeout") }, "plain defaults are not listed")
        // Every -v line's value and origin is on config show's line for that setting.
        let show = SettingsReport.showText(r)
        for (setting, value) in r.listing {
            guard let value, value.origin != .defaultValue else { continue }
            let line = "* \(setting.name) \(value.value.display) (\(value.origin.description))"
            #expect(verbose.contains(line))
            let row = show.first { $0.hasPrefix(setting.name + " ") }
            #expect(
                row?.contains(value.value.display) == true && row?.hasSuffix(value.origin.description) == true,
                "\(line) vs \(row ?? "")")
        }
        let all = (verbose + show + SettingsReport.showJSON(r)).joined(separator: "\n")
        #expect(!all.contains("hunter2") && !all.contains("pw-secret"))
    }

    @Test func pemIsShownByItsVariable() throws {
        let r = try SettingsResolverTests.resolve(variables: ["APNSCTL_AUTH_KEY": Self.pem], file: nil)
        let all = (SettingsReport.verboseLines(r) + SettingsReport.showText(r) + SettingsReport.showJSON(r)).joined(
            separator: "\n")
        #expect(all.contains("(PEM from APNSCTL_AUTH_KEY)"))
        #expect(!all.contains("SECRETBODY") && !all.contains("BEGIN"))
    }

    @Test func listMarksTheDefaultAndTheProfilesOwnDevices() throws {
        let file = try SettingsFile.parse(Array(SettingsResolverTests.example.utf8), path: "/c.toml")
        let text = SettingsReport.listText(file, mockReadyFile: "/s/mock.json")
        #expect(text.first == "profile dev (default)  /c.toml:3")
        #expect(text.contains("profile mock  built in: apnsctl mock's /s/mock.json"))
        #expect(
            text.last
                == "device qa-ipad  aaaa000000000000000000000000000000000000000000000000000000000a11  profile prod-cert, /c.toml:18"
        )
        let json = SettingsReport.listJSON(file, mockReadyFile: "/s/mock.json")
        #expect(json.contains("{\"profile\":\"mock\",\"default\":false,\"builtin\":true,\"file\":\"/s/mock.json\"}"))
        #expect(
            json.last
                == "{\"device\":\"qa-ipad\",\"token\":\"aaaa000000000000000000000000000000000000000000000000000000000a11\",\"profile\":\"prod-cert\",\"file\":\"/c.toml\",\"line\":18}"
        )
    }
}
