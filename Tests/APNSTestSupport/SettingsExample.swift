/// CLI.md's example settings file, as README shows it.
public enum SettingsExample {
    public static let text = """
        default-profile = "dev"

        [profiles.dev]
        auth-key = "~/keys/AuthKey_ABCDE12345.p8"   # key-id taken from the file name
        team-id = "TEAMID1234"
        topic = "com.example.app"
        env = "sandbox"

        [profiles.prod-cert]
        cert = "certs/push-prod.p12"                 # relative to this file's folder
        env = "production"

        [devices]
        my-iphone = "3f2a000000000000000000000000000000000000000000000000000000009c1d"
        qa-ipad = "77b0000000000000000000000000000000000000000000000000000000000a11"

        """
}
