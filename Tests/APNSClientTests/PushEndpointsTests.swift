import Testing

@testable import APNSClient

/// `--endpoint` repeated: a bare URL for every environment, or one per environment; `--port` for Apple's hosts.
@Suite struct PushEndpointsTests {
    @Test func appleHostsOnEitherPort() throws {
        let none = try PushEndpoints(arguments: [])
        #expect(none.isEmpty)
        #expect(none.endpoint(for: .sandbox).url == "https://api.sandbox.push.apple.com:443")
        #expect(none.endpoint(for: .production, port: 2197).url == "https://api.push.apple.com:2197")
    }

    @Test func bareAndPerEnvironment() throws {
        let e = try PushEndpoints(arguments: ["https://127.0.0.1:1", "prod=https://127.0.0.1:2"])
        #expect(e.endpoint(for: .sandbox, port: 2197).url == "https://127.0.0.1:1")
        #expect(e.endpoint(for: .production).url == "https://127.0.0.1:2")
        let both = try PushEndpoints(arguments: ["sandbox=https://a:1", "production=https://b:2"])
        #expect(both.endpoint(for: .sandbox).host == "a")
        #expect(both.endpoint(for: .production).host == "b")
        let one = try PushEndpoints(arguments: ["development=https://a:1"])
        #expect(one.endpoint(for: .production).host == "api.push.apple.com")
    }

    @Test(arguments: [
        ["staging=https://a:1"], ["sandbox=https://a:1", "dev=https://b:1"], ["https://a:1", "https://b:1"],
        ["sandbox=http://a:1"],
    ])
    func refused(_ arguments: [String]) {
        #expect(throws: PushEndpoint.Problem.self) { try PushEndpoints(arguments: arguments) }
    }

    /// The refusals of the list as a whole name the argument and say how to give the URLs.
    @Test func listRefusalsNameTheArgument() {
        func problem(_ arguments: [String]) -> PushEndpoint.Problem? {
            do {
                _ = try PushEndpoints(arguments: arguments)
                return nil
            } catch { return error }
        }
        #expect(
            problem(["staging=https://a:1"])?.message
                == "staging=https://a:1: staging is not an environment; give sandbox=URL or production=URL, or a bare URL for both"
        )
        #expect(
            problem(["sandbox=https://a:1", "dev=https://b:1"]) == .givenTwice(argument: "dev=https://b:1", .sandbox))
        #expect(
            problem(["sandbox=https://a:1", "dev=https://b:1"])?.message
                == "dev=https://b:1: sandbox was given twice; give one URL per environment")
        #expect(
            problem(["https://a:1", "https://b:1"])?.message
                == "https://b:1: a second bare URL; give one, or sandbox=URL and production=URL")
    }
}
