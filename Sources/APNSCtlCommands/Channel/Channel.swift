import ArgumentParser

extension APNSCtl {
    /// `apnsctl channel`: manage the broadcast channels of an app (iOS 18 Live Activities) on Apple's
    /// channel management hosts, or the mock.
    struct Channel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "channel",
            abstract: "Manage broadcast channels (iOS 18 Live Activities): create, list, get, delete.",
            discussion: """
                A Live Activity subscribed to a channel is updated by one broadcast to it (apnsctl send \
                PAYLOAD --channel ID). Requests go to Apple's channel management host for --env \
                (api-manage-broadcast.sandbox.push.apple.com:2195, api-manage-broadcast.push.apple.com:2196) \
                or to --endpoint, with send's credential flags. The app is --topic (any push-type suffix \
                removed), else the certificate's bundle id; token auth needs --topic. Channels do not cross \
                environments.

                Every request carries an apns-request-id (a fresh lowercase UUID, or --request-id), \
                printed on stderr in text mode and in the JSON object with -o json. A request APNs rejects \
                exits 1 with the reason, what it means and what to check.

                Examples:
                  ID=$(apnsctl channel create -c push.p12 --storage most-recent)
                  apnsctl send update.json --channel "$ID" -c push.p12
                  apnsctl channel list -o json --auth-key AuthKey_ABCDE12345.p8 \\
                      --team-id TEAMID1234 --topic com.example.app
                  apnsctl channel delete "$ID" -c push.p12 --yes
                """,
            subcommands: [Create.self, List.self, Get.self, Delete.self])
    }
}
