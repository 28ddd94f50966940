import APNSClient
import APNSCore
import APNSCrypto
import APNSTestSupport
import Testing

@testable import APNSCtlCommands

/// `send`'s planner as a table: for every way a push is described (a payload alone, the quick flags, a `.apns`
/// file, a Live Activity, widgets and controls, background, location with each kind of credential, mdm, voip and
/// the other suffixed types), the push type, priority, topic, size limit and header set it decides, or the
/// usage (64) or credential (77) error. Pure: no socket, no file, no clock but the one given.
@Suite struct SendPlannerTests {
    enum Credential: String {
        /// Token auth.
        case token
        /// `com.example.dev`, sandbox only, no topics extension (its bundle id alone).
        case development
        /// `com.example.demo`, topics demo, demo.voip, demo.complication.
        case universal
    }

    enum Expected {
        /// Push type, `apns-priority` (nil: none sent), `apns-topic`, size limit, the `apns-*` and `authorization`
        /// header names in the order sent, and how many warnings.
        case headers(PushType, Int?, String, Int, String, warnings: Int = 0)
        /// The exit code and the start of the message.
        case error(Int32, String)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var payload: String? = nil
        var isAPNSFile = false
        var topic: String? = nil
        var pushType: PushType? = nil
        var priority: Priority? = nil
        var sizeLimit: Int? = nil
        var event: LiveActivityEvent? = nil
        var contentChanged = false
        var alertFlags: [String: String] = [:]
        var expiration: Int64? = nil
        var credential = Credential.token
        let expected: Expected

        var testDescription: String { name }
    }

    static let now: Int64 = 1_762_167_000
    static let token = "authorization apns-topic apns-push-type apns-priority"
    static let cert = "apns-topic apns-push-type apns-priority"
    static let la = "com.example.app.push-type.liveactivity"

    static let cases: [Case] = [
        // A payload alone: the type comes from it, the topic from --topic or the certificate.
        Case(
            name: "payload only: alert", payload: #"{"aps":{"alert":"hi"}}"#, topic: "com.example.app",
            expected: .headers(.alert, 10, "com.example.app", 4096, token)),
        Case(
            name: "payload only: the certificate's bundle id is the topic", payload: #"{"aps":{"alert":"hi"}}"#,
            credential: .development,
            expected: .headers(.alert, 10, "com.example.dev", 4096, cert)),
        // A certificate listing topics carries a type without a suffix to those topics only, in any letter case.
        Case(
            name: "alert to a topic the certificate does not list", payload: #"{"aps":{"alert":"hi"}}"#,
            topic: "com.example.other", credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.other (from --topic), so APNs would answer TopicDisallowed to this alert push; give --topic com.example.demo, or send with token auth: --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic com.example.other"
            )),
        Case(
            name: "background to a listed topic in another letter case", payload: #"{"aps":{"content-available":1}}"#,
            topic: "Com.Example.Demo", credential: .universal,
            expected: .headers(.background, 5, "Com.Example.Demo", 4096, cert)),
        Case(
            name: "background: content-available alone, priority 5", payload: #"{"aps":{"content-available":1}}"#,
            topic: "com.example.app",
            expected: .headers(.background, 5, "com.example.app", 4096, token)),
        Case(
            name: "background with a certificate", payload: #"{"aps":{"content-available":1},"k":1}"#,
            credential: .universal,
            expected: .headers(.background, 5, "com.example.demo", 4096, cert)),
        Case(
            name: "background with --priority 10 carries it (the rules judge it)",
            payload: #"{"aps":{"content-available":1}}"#,
            topic: "com.example.app", priority: .immediate,
            expected: .headers(.background, 10, "com.example.app", 4096, token)),
        Case(
            name: "mdm: no aps, the certificate's UID (an app's bundle id: a warning)",
            payload: #"{"mdm":"00000000-1111-2222-3333-444444444444"}"#, credential: .development,
            expected: .headers(.mdm, 10, "com.example.dev", 4096, cert, warnings: 1)),
        Case(
            name: "mdm to an MDM topic, with an app's certificate: a warning",
            payload: #"{"mdm":"00000000-1111-2222-3333-444444444444"}"#,
            topic: "com.apple.mgmt.External.00000000-1111-2222-3333-444444444444", credential: .development,
            expected: .headers(
                .mdm, 10, "com.apple.mgmt.External.00000000-1111-2222-3333-444444444444", 4096, cert, warnings: 1)),
        // mdm: the MDM push certificate only (APNS.md §3).
        Case(
            name: "mdm with token auth", payload: #"{"mdm":"00000000-1111-2222-3333-444444444444"}"#,
            topic: "com.example.app", pushType: .mdm,
            expected: .error(77, "mdm pushes take the MDM push certificate")),
        // The quick flags, and none at all.
        Case(
            name: "--alert --title --badge --sound", topic: "com.example.app",
            alertFlags: ["alert": "Body", "title": "Title", "badge": "1", "sound": "default"],
            expected: .headers(.alert, 10, "com.example.app", 4096, token)),
        Case(
            name: "no payload and no flags: the default alert", topic: "com.example.app",
            expected: .headers(.alert, 10, "com.example.app", 4096, token)),
        Case(
            name: "--content-available alone: a background push, priority 5", topic: "com.example.app",
            alertFlags: ["content-available": ""],
            expected: .headers(.background, 5, "com.example.app", 4096, token)),
        Case(
            name: "--content-available alone with a certificate", alertFlags: ["content-available": ""],
            credential: .universal, expected: .headers(.background, 5, "com.example.demo", 4096, cert)),
        Case(
            name: "--push-type background without a payload: content-available, no alert", topic: "com.example.app",
            pushType: .background, expected: .headers(.background, 5, "com.example.app", 4096, token)),
        Case(
            name: "--subtitle --category --thread-id --mutable-content --content-available", topic: "com.example.app",
            alertFlags: [
                "subtitle": "S", "category": "C", "thread-id": "T", "mutable-content": "", "content-available": "",
            ],
            expected: .headers(.alert, 10, "com.example.app", 4096, token)),
        Case(
            name: "--content-available on a Live Activity", topic: "com.example.app", event: .update,
            alertFlags: ["content-available": ""], expected: .error(64, "--content-available: Live Activity pushes")),
        Case(
            name: "token auth without --topic", payload: #"{"aps":{"alert":"hi"}}"#,
            expected: .error(64, "--topic is required with --auth-key")),
        Case(
            name: "--size-limit", payload: #"{"aps":{"alert":"hi"}}"#, topic: "com.example.app", sizeLimit: 2048,
            expected: .headers(.alert, 10, "com.example.app", 2048, token)),
        Case(
            name: "--expiration is sent", payload: #"{"aps":{"alert":"hi"}}"#, topic: "com.example.app",
            expiration: now + 60,
            expected: .headers(.alert, 10, "com.example.app", 4096, token + " apns-expiration")),
        // .apns files: Simulator Target Bundle is the default topic.
        Case(
            name: ".apns file: its bundle is the topic",
            payload: #"{"Simulator Target Bundle":"com.example.sim","aps":{"alert":"hi"}}"#,
            isAPNSFile: true, expected: .headers(.alert, 10, "com.example.sim", 4096, token)),
        Case(
            name: ".apns file: --topic wins",
            payload: #"{"Simulator Target Bundle":"com.example.sim","aps":{"alert":"hi"}}"#,
            isAPNSFile: true, topic: "com.example.app", expected: .headers(.alert, 10, "com.example.app", 4096, token)),
        Case(
            name: ".apns file with a certificate listing the suffixed bundle",
            payload: #"{"Simulator Target Bundle":"com.example.demo","aps":{},"x":1}"#,
            isAPNSFile: true, pushType: .voip, credential: .universal,
            expected: .headers(.voip, 10, "com.example.demo.voip", 5120, cert)),
        // Live Activities: the builder makes the type and suffixes the topic.
        Case(
            name: "--live-activity start", topic: "com.example.app", event: .start,
            expected: .headers(.liveactivity, 10, la, 4096, token)),
        Case(
            name: "--live-activity update", topic: "com.example.app", event: .update,
            expected: .headers(.liveactivity, 10, la, 4096, token)),
        Case(
            name: "--live-activity end", topic: "com.example.app", event: .end,
            expected: .headers(.liveactivity, 10, la, 4096, token)),
        Case(
            name: "--live-activity with --priority 5", topic: "com.example.app", priority: .powerAware, event: .update,
            expected: .headers(.liveactivity, 5, la, 4096, token)),
        Case(
            name: "--live-activity on an already suffixed topic", topic: la, event: .update,
            expected: .headers(.liveactivity, 10, la, 4096, token)),
        Case(
            name: "Live Activity payload: the type from aps.event",
            payload: #"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#,
            topic: la, expected: .headers(.liveactivity, 10, la, 4096, token)),
        Case(
            name: "--live-activity --push-type alert", topic: "com.example.app", pushType: .alert, event: .update,
            expected: .error(64, "--push-type alert: --live-activity builds a liveactivity push")),
        Case(
            name: "a topic with a stray dot is refused before a suffix doubles it", topic: "com.example.app.",
            event: .update,
            expected: .error(
                64,
                "--topic com.example.app.: a topic is a bundle id, words joined by single dots such as com.example.app, and this one has an empty part"
            )),
        Case(
            name: "a topic in quotes a shell kept", payload: #"{"aps":{"alert":"x"}}"#, topic: "'com.example.app'",
            expected: .error(64, "--topic 'com.example.app': a topic is a bundle id, and no bundle id holds quotes")),
        Case(
            name: "a topic with two dots in a row", payload: #"{"aps":{"alert":"x"}}"#, topic: "com..example.app",
            expected: .error(64, "--topic com..example.app: a topic is a bundle id")),
        // One rule with the app builds' (BundleIDShape): a lookalike from a document is said with its code point.
        Case(
            name: "a topic with an en dash for its hyphen", payload: #"{"aps":{"alert":"x"}}"#,
            topic: "com.example.my\u{2013}app",
            expected: .error(
                64,
                "--topic com.example.my\u{2013}app: a topic is a bundle id, made of ASCII letters, digits, hyphens, underscores and dots, such as com.example.app, and this one holds \u{2018}\u{2013}\u{2019} (U+2013); retype it without that character"
            )),
        Case(
            name: "a topic with an accented letter", payload: #"{"aps":{"alert":"x"}}"#, topic: "com.example.café",
            expected: .error(
                64,
                "--topic com.example.café: "
                    + "a topic is a bundle id, made of ASCII letters, digits, hyphens, underscores and dots, such as com.example.app, and this one holds \u{2018}é\u{2019} (U+00E9)"
            )),
        Case(
            name: "a topic with a character no bundle id has", payload: #"{"aps":{"alert":"x"}}"#,
            topic: "com.example.app!",
            expected: .error(
                64,
                "--topic com.example.app!: "
                    + "a topic is a bundle id, made of ASCII letters, digits, hyphens, underscores and dots, such as com.example.app, and this one holds \u{2018}!\u{2019} (U+0021)"
            )),
        Case(
            name: "a topic with underscores and hyphens", payload: #"{"aps":{"alert":"x"}}"#,
            topic: "com.example_co.my-app", expected: .headers(.alert, 10, "com.example_co.my-app", 4096, token)),
        Case(
            name: "Live Activity, certificate without a topics extension: a warning", event: .update,
            credential: .development,
            expected: .headers(.liveactivity, 10, "com.example.dev.push-type.liveactivity", 4096, cert, warnings: 1)),
        Case(
            name: "Live Activity, certificate whose topics lack it", event: .update, credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.push-type.liveactivity, so APNs would answer TopicDisallowed; Live Activities need"
            )),
        Case(
            name: "Live Activity payload, certificate whose topics lack it",
            payload: #"{"aps":{"event":"end","timestamp":1}}"#, credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.push-type.liveactivity"
            )),
        // Widgets and controls: no priority or expiration unless given; with no payload and no flag, the one key
        // those pushes are (an alert, the default elsewhere, is refused).
        Case(
            name: "--push-type widgets alone", topic: "com.example.app", pushType: .widgets,
            expected: .headers(
                .widgets, nil, "com.example.app.push-type.widgets", 4096, "authorization apns-topic apns-push-type")),
        Case(
            name: "--content-changed --push-type widgets", topic: "com.example.app", pushType: .widgets,
            contentChanged: true,
            expected: .headers(
                .widgets, nil, "com.example.app.push-type.widgets", 4096, "authorization apns-topic apns-push-type")),
        Case(
            name: "--content-changed --push-type controls", topic: "com.example.app", pushType: .controls,
            contentChanged: true,
            expected: .headers(
                .controls, nil, "com.example.app.push-type.controls", 4096, "authorization apns-topic apns-push-type")),
        Case(
            name: "widgets with --priority and --expiration: sent, and a warning", topic: "com.example.app",
            pushType: .widgets, priority: .powerAware,
            contentChanged: true, expiration: now + 3600,
            expected: .headers(
                .widgets, 5, "com.example.app.push-type.widgets", 4096, token + " apns-expiration", warnings: 1)),
        Case(
            name: "content-changed payload on a controls topic", payload: #"{"aps":{"content-changed":true}}"#,
            topic: "com.example.app.push-type.controls",
            expected: .headers(
                .controls, nil, "com.example.app.push-type.controls", 4096, "authorization apns-topic apns-push-type")),
        Case(
            name: "--content-changed without widgets or controls", topic: "com.example.app", contentChanged: true,
            expected: .error(64, "--content-changed: aps holds only content-changed")),
        // A suffix written by hand, nearly, then added again: said, with the bundle id it was likely meant to be.
        Case(
            name: "--live-activity on a topic ending in .liveactivity", topic: "com.example.app.liveactivity",
            event: .update,
            expected: .headers(
                .liveactivity, 10, "com.example.app.liveactivity.push-type.liveactivity", 4096, token, warnings: 1)),
        Case(
            name: "--content-changed --push-type widgets on a topic ending in .push-type.widget",
            topic: "com.example.app.push-type.widget", pushType: .widgets, contentChanged: true,
            expected: .headers(
                .widgets, nil, "com.example.app.push-type.widget.push-type.widgets", 4096,
                "authorization apns-topic apns-push-type", warnings: 1)),
        // A topic of another type made it that type: a VoIP push that reports no call (iOS stops the app's VoIP pushes).
        Case(
            name: "--content-changed on a voip topic", topic: "com.example.app.voip", contentChanged: true,
            expected: .error(
                64,
                "--content-changed: aps holds only content-changed, which widgets and controls pushes carry, but the topic com.example.app.voip ends with \".voip\", the suffix of voip pushes; give the app's bundle id as --topic, with --push-type widgets or controls"
            )),
        Case(
            name: "content-changed payload on a complication topic", payload: #"{"aps":{"content-changed":true}}"#,
            topic: "com.example.app.complication",
            expected: .error(
                64, "(inline): aps holds only content-changed, which widgets and controls pushes carry, but")),
        Case(
            name: "--content-available on a voip topic", topic: "com.example.app.voip",
            alertFlags: ["content-available": ""],
            expected: .error(
                64,
                "--content-available builds a background push, but the topic com.example.app.voip ends with \".voip\", the suffix of voip pushes; give the app's bundle id as --topic, or a voip payload (--push-type background sends it to com.example.app.voip as given, with a warning)"
            )),
        Case(
            name: "--alert on a voip topic: sent as the topic says, with a warning", topic: "com.example.app.voip",
            alertFlags: ["alert": "hi"], expected: .headers(.voip, 10, "com.example.app.voip", 5120, token, warnings: 1)
        ),
        Case(
            name: "an alert payload on a voip topic: a warning too", payload: #"{"aps":{"alert":"hi"}}"#,
            topic: "com.example.app.voip",
            expected: .headers(.voip, 10, "com.example.app.voip", 5120, token, warnings: 1)),
        Case(
            name: "a voip payload of the app's own keys: quiet", payload: #"{"aps":{},"call-id":"42"}"#,
            topic: "com.example.app.voip", expected: .headers(.voip, 10, "com.example.app.voip", 5120, token)),
        Case(
            name: "a background payload file on a voip topic is the app's own voip payload",
            payload: #"{"aps":{"content-available":1}}"#, topic: "com.example.app.voip",
            expected: .headers(.voip, 10, "com.example.app.voip", 5120, token)),
        Case(
            name: "content-changed payload without widgets or controls", payload: #"{"aps":{"content-changed":true}}"#,
            topic: "com.example.app",
            expected: .error(64, "(inline): aps holds only content-changed")),
        Case(
            name: "--content-changed --push-type alert", topic: "com.example.app", pushType: .alert,
            contentChanged: true,
            expected: .error(64, "--push-type alert: --content-changed builds a widgets or controls push")),
        Case(
            name: "widgets, certificate whose topics lack it", pushType: .widgets, contentChanged: true,
            credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.push-type.widgets, so APNs would answer TopicDisallowed; widgets pushes need a certificate listing that topic or token auth"
            )),
        Case(
            name: "widgets, certificate without a topics extension: a warning, as for a Live Activity",
            pushType: .widgets, contentChanged: true, credential: .development,
            expected: .headers(
                .widgets, nil, "com.example.dev.push-type.widgets", 4096, "apns-topic apns-push-type", warnings: 1)),
        // Location: token auth only.
        Case(
            name: "location by --push-type, token", payload: #"{"aps":{},"q":1}"#,
            topic: "com.example.app.location-query", pushType: .location,
            expected: .headers(.location, 10, "com.example.app.location-query", 4096, token)),
        Case(
            name: "location by the topic's suffix, token", payload: #"{"aps":{},"q":1}"#,
            topic: "com.example.app.location-query",
            expected: .headers(.location, 10, "com.example.app.location-query", 4096, token)),
        Case(
            name: "location by --push-type, certificate", payload: #"{"aps":{},"q":1}"#, pushType: .location,
            credential: .development,
            expected: .error(77, "--cert dev.pem: location pushes take token auth only")),
        Case(
            name: "location by the topic's suffix, certificate listing topics", payload: #"{"aps":{},"q":1}"#,
            topic: "com.example.demo.location-query", credential: .universal,
            expected: .error(77, "--cert demo.pem: location pushes take token auth only")),
        // The other suffixed types.
        Case(
            name: "voip: the certificate's suffixed topic, 5 KB", payload: #"{"aps":{},"caller":"Ada"}"#,
            pushType: .voip, credential: .universal,
            expected: .headers(.voip, 10, "com.example.demo.voip", 5120, cert)),
        Case(
            name: "voip by the topic's suffix, token", payload: #"{"aps":{},"caller":"Ada"}"#,
            topic: "com.example.app.voip",
            expected: .headers(.voip, 10, "com.example.app.voip", 5120, token)),
        Case(
            name: "complication with a certificate listing it", payload: #"{"aps":{},"x":1}"#, pushType: .complication,
            credential: .universal,
            expected: .headers(.complication, 10, "com.example.demo.complication", 4096, cert)),
        Case(
            name: "fileprovider by the topic's suffix, token", payload: #"{"aps":{},"x":1}"#,
            topic: "com.example.app.pushkit.fileprovider",
            expected: .headers(.fileprovider, 10, "com.example.app.pushkit.fileprovider", 4096, token)),
        Case(
            name: "fileprovider, certificate whose topics lack it", payload: #"{"aps":{},"x":1}"#,
            topic: "com.example.demo.pushkit.fileprovider",
            credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.pushkit.fileprovider"
            )),
        // Another type's suffix, a certificate listing neither form: a bundle id may end so, and 77 names the
        // topic with this type's suffix appended (a certificate listing the other form is the payload check's 65).
        Case(
            name: "fileprovider to the voip topic, a certificate listing neither", payload: #"{"aps":{},"x":1}"#,
            topic: "com.example.demo.voip", pushType: .fileprovider, credential: .universal,
            expected: .error(
                77,
                "--cert demo.pem: its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.voip.pushkit.fileprovider,"
            )),
        Case(
            name: "pushtotalk by the topic's suffix, token", payload: #"{"aps":{},"x":1}"#,
            topic: "com.example.app.voip-ptt",
            expected: .headers(.pushtotalk, 10, "com.example.app.voip-ptt", 4096, token + " apns-expiration")),
        // --content-changed is a whole payload: a PAYLOAD that is another push is refused, not merged into.
        Case(
            name: "content-changed with a background PAYLOAD", payload: #"{"aps":{"content-available":1}}"#,
            topic: "com.example.app", pushType: .widgets, contentChanged: true,
            expected: .error(64, "--content-changed: it builds a widgets or controls push")),
        Case(
            name: "content-changed with an alert PAYLOAD", payload: #"{"aps":{"alert":"hi"}}"#,
            topic: "com.example.app", contentChanged: true,
            expected: .error(64, "--content-changed: it builds a widgets or controls push")),
        Case(
            name: "content-changed with the widgets PAYLOAD it builds", payload: #"{"aps":{"content-changed":true}}"#,
            topic: "com.example.app", pushType: .widgets, contentChanged: true,
            expected: .headers(
                .widgets, nil, "com.example.app.push-type.widgets", 4096, "authorization apns-topic apns-push-type")),
        // A topic with another type's suffix gets no second one: kept, for the topic rule to refuse (65).
        Case(
            name: "controls on a widgets topic, token", topic: "com.example.app.push-type.widgets",
            pushType: .controls, contentChanged: true,
            expected: .headers(
                .controls, nil, "com.example.app.push-type.widgets", 4096, "authorization apns-topic apns-push-type")),
        Case(
            name: "a Live Activity on a widgets topic", payload: nil, topic: "com.example.app.push-type.widgets",
            event: .update, alertFlags: [:],
            expected: .headers(.liveactivity, 10, "com.example.app.push-type.widgets", 4096, token)),
        // An older type's suffix may end a bundle id: the suffix is added, with a warning naming the bare id.
        Case(
            name: "a Live Activity on a voip topic", payload: nil, topic: "com.example.app.voip",
            event: .update, alertFlags: [:],
            expected: .headers(
                .liveactivity, 10, "com.example.app.voip.push-type.liveactivity", 4096, token, warnings: 1)),
        // The suffix in other letter case is the suffix, spelt as APNs spells it.
        Case(
            name: "a Live Activity on its topic in other case", payload: nil,
            topic: "com.example.app.push-type.LiveActivity", event: .update, alertFlags: [:],
            expected: .headers(.liveactivity, 10, "com.example.app.push-type.liveactivity", 4096, token)),
    ]

    /// The planner's pure steps, as `makePlan` runs them: the description, the payload, the headers.
    static func plan(_ c: Case) throws(CLIError) -> (headers: PushHeaders, request: PushRequest) {
        let description = PushDescription(
            topic: c.topic, pushType: c.pushType, priority: c.priority, liveActivity: c.event,
            contentChanged: c.contentChanged, sizeLimit: c.sizeLimit)
        let requested = try description.requestedType()
        var flags = PayloadFlags()
        flags.liveActivity = c.event
        flags.contentChanged = c.contentChanged
        (flags.alert, flags.title, flags.badge, flags.sound) = (
            c.alertFlags["alert"], c.alertFlags["title"], c.alertFlags["badge"], c.alertFlags["sound"]
        )
        (flags.subtitle, flags.category, flags.threadID) = (
            c.alertFlags["subtitle"], c.alertFlags["category"], c.alertFlags["thread-id"]
        )
        flags.mutableContent = c.alertFlags["mutable-content"] != nil
        flags.contentAvailable = c.alertFlags["content-available"] != nil
        let read = c.payload.map {
            SendPayload(payload: Payload(bytes: Array($0.utf8), isAPNSFile: c.isAPNSFile), name: "(inline)")
        }
        let payload = try SendPayload.applying(flags, to: read, type: requested, now: now)
        let rule: CertificatePushRule? =
            switch c.credential {
            case .token: nil
            case .development:
                CertificatePushRule(info: CredentialFixtures.development.info, label: "--cert dev.pem", mockFile: nil)
            case .universal:
                CertificatePushRule(info: CredentialFixtures.universal.info, label: "--cert demo.pem", mockFile: nil)
            }
        let headers = try PushHeaders.plan(
            description, requested: requested, payload: payload, parsed: ParsedPayload(payload.payload),
            certificate: rule, expiration: c.expiration)
        let request = headers.request(
            body: payload.payload.body, collapseID: nil, apnsID: nil,
            bearerToken: c.credential == .token ? "eyJ.token" : nil)
        return (headers, request)
    }

    /// Push-to-talk goes out with apns-expiration 0 (now or never) unless one is given, as Apple asks of it.
    @Test func pushToTalkExpiresAtOnceUnlessGiven() throws {
        var c = Case(
            name: "pushtotalk", payload: #"{"aps":{},"x":1}"#, topic: "com.example.app.voip-ptt",
            expected: .headers(.pushtotalk, 10, "com.example.app.voip-ptt", 4096, Self.token + " apns-expiration"))
        #expect(try Self.plan(c).headers.expiration == 0)
        #expect(try Self.plan(c).request.commonHeaders.contains { $0.name == "apns-expiration" && $0.value == "0" })
        c.expiration = Self.now + 60
        #expect(try Self.plan(c).headers.expiration == Self.now + 60)
        c.topic = "com.example.app.voip"
        c.expiration = nil
        #expect(try Self.plan(c).headers.expiration == nil, "voip keeps APNs' own storage")
    }

    /// The text a planner error prints after `error: `.
    static func message(_ error: CLIError) -> String {
        switch error {
        case .usage(let m), .credential(let m), .inputMissing(let m): m
        default: "\(error)"
        }
    }

    @Test(arguments: cases)
    func thePlannerDecidesEachHeaderOnce(_ c: Case) {
        let result: Result<(headers: PushHeaders, request: PushRequest), CLIError>
        do throws(CLIError) { result = .success(try Self.plan(c)) } catch { result = .failure(error) }
        switch (c.expected, result) {
        case (.headers(let type, let priority, let topic, let limit, let fields, let warnings), .success(let plan)):
            #expect(plan.headers.pushType == type)
            #expect(plan.headers.priority?.rawValue == priority)
            #expect(plan.headers.topic == topic)
            #expect(plan.headers.sizeLimit == limit)
            #expect(plan.headers.warnings.count == warnings, "\(plan.headers.warnings)")
            let sent = plan.request.commonHeaders.map(\.name).filter { $0.hasPrefix("apns-") || $0 == "authorization" }
            #expect(sent.joined(separator: " ") == fields)
            #expect(plan.request.commonHeaders.first { $0.name == "apns-push-type" }?.value == type.rawValue)
        case (.error(let code, let message), .failure(let error)):
            #expect(error.exitCode == code, "\(error)")
            #expect(Self.message(error).hasPrefix(message), "\(Self.message(error))")
        case (_, .success(let plan)):
            Issue.record("expected \(c.expected), planned \(plan.headers)")
        case (_, .failure(let error)):
            Issue.record("expected \(c.expected), got \(error.exitCode): \(Self.message(error))")
        }
    }

    /// An expiration that does not do what it seems to is warned about: already past (nothing is stored, as for
    /// 0), or past the 30 days APNs stores a push at most; 0 and a time within 30 days are quiet.
    @Test func anExpirationPastOrBeyondStorageIsWarnedAbout() {
        let now: Int64 = 1_800_000_000
        #expect(
            APNSCtl.Send.expirationWarning(now - 3600, now: now, label: "--expiration")
                == "--expiration: 2027-01-15T07:00:00Z is already past, so APNs stores nothing (as with 0): it tries once at most; give a time to come, such as 1h"
        )
        #expect(
            APNSCtl.Send.expirationWarning(now + 31 * 86_400, now: now, label: "APNSCTL_EXPIRATION")
                == "APNSCTL_EXPIRATION: 2027-02-15T08:00:00Z is more than 30 days away; APNs stores a push for 30 days at most"
        )
        for quiet: Int64 in [0, now, now + 3600, now + 30 * 86_400] {
            #expect(APNSCtl.Send.expirationWarning(quiet, now: now, label: "--expiration") == nil, "\(quiet)")
        }
    }

    /// The rule runs in `send` itself, before connecting and in the dry run: a widgets push with a certificate
    /// whose topics lack the widgets topic is exit 77, and nothing is printed on standard output.
    @Test func aCertificateWithoutTheSuffixedTopicIs77InTheCommand() throws {
        let dir = try TemporaryDirectory(prefix: "planner-cert")
        let cert = try dir.pem("demo.pem", CredentialFixtures.universal)
        let device = String(repeating: "3f2a", count: 16)
        for mode in ["--dry-run", "--endpoint=https://127.0.0.1:9"] {
            let t = TestWorld(home: dir.path)
            let status = t.run([
                "send", mode, "--cert", cert, "--content-changed", "--push-type", "widgets", "-d", device,
            ])
            #expect(status == 77, "\(mode): \(t.stderr.text)")
            #expect(
                t.stderr.lines == [
                    "error: --cert \(cert): its topics (com.example.demo, com.example.demo.voip, com.example.demo.complication) lack com.example.demo.push-type.widgets, so APNs would answer TopicDisallowed; widgets pushes need a certificate listing that topic or token auth: send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID --topic com.example.demo.push-type.widgets"
                ],
                "\(t.stderr.text)")
            #expect(t.stdout.text.isEmpty)
        }
    }

    /// An alert to a topic the certificate does not list is 77 before connecting, naming where the topic came from
    /// when the user may not have typed it (a variable, an Xcode `.apns` file's bundle).
    @Test func anUnlistedTopicIsRefusedNamingItsOrigin() throws {
        let dir = try TemporaryDirectory(prefix: "planner-topic")
        let cert = try dir.pem("demo.pem", CredentialFixtures.universal)
        let apns = try dir.write("other.apns", #"{"Simulator Target Bundle":"com.example.other","aps":{"alert":"hi"}}"#)
        let device = String(repeating: "3f2a", count: 16)
        let lack = "lack com.example.other (from "
        for (arguments, variables, origin) in [
            (["--alert", "hi"], ["APNSCTL_TOPIC": "com.example.other"], "APNSCTL_TOPIC"),
            ([apns], [:], "the payload's \"Simulator Target Bundle\""),
        ] {
            let r = try InProcess.apnsctl(
                ["send", "--cert", cert, "-d", device, "--endpoint", "https://127.0.0.1:9"] + arguments,
                environment: variables)
            #expect(r.status == 77, "\(r.stderr)")
            #expect(r.stderr.contains(lack + origin + "), so APNs would answer TopicDisallowed"), "\(r.stderr)")
            #expect(r.stderr.contains("give --topic com.example.demo, or send with token auth"), "\(r.stderr)")
        }
    }

    /// A topic that already ends with another type's suffix is refused (65) with the topic meant, for every
    /// builder that appends a suffix, before connecting: never sent as `….push-type.widgets.push-type.controls`.
    @Test func aTopicWithAnotherTypesSuffixGetsNoSecondOne() throws {
        let mock = try InProcessMock(keepingLog: true)
        let scratch = try TemporaryDirectory(prefix: "planner-suffix")
        let auth = [
            "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--auth-key", mock.authKey, "--team-id", mock.teamID,
            "-d", String(repeating: "3f2a", count: 16),
        ]
        let widgets = mock.bundleID + ".push-type.widgets"
        let runs: [([String], String)] = [
            (["--topic", widgets, "--push-type", "controls", "--content-changed"], ".push-type.controls"),
            (["--topic", widgets, "--live-activity", "update", "--content-state", "{}"], ".push-type.liveactivity"),
            (
                ["--topic", mock.bundleID + ".push-type.liveactivity", "--push-type", "widgets", "--content-changed"],
                ".push-type.widgets"
            ),
        ]
        for (flags, suffix) in runs {
            let r = try InProcess.apnsctl(["send"] + flags + auth, environment: ["XDG_CACHE_HOME": scratch.path])
            #expect(r.status == 65, "\(flags): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains("lacks the \"\(suffix)\" suffix"), "\(r.stderr)")
            #expect(r.stderr.contains("use --topic \(mock.bundleID)\(suffix)"), "\(r.stderr)")
        }
        #expect(mock.answersPerDevice().isEmpty, "\(mock.stdout)")
    }

    /// With a certificate too: a voip push to the complication topic of a certificate that lists the voip one is
    /// the wrong topic (65, naming the one meant), not a certificate lacking `….complication.voip` (77, advising
    /// token auth).
    @Test func anotherTypesTopicWithACertificateIsTheWrongTopic() throws {
        let mock = try InProcessMock(keepingLog: true)
        let r = try InProcess.apnsctl(
            [
                "send", "--endpoint", mock.endpoint, "--ca-file", mock.caFile, "--cert", mock.certificate,
                "-d", String(repeating: "3f2a", count: 16), "--push-type", "voip", "--topic",
                mock.bundleID + ".complication", #"{"aps":{},"caller":"Ada"}"#,
            ])
        #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr.contains(
                #"lacks the ".voip" suffix that voip pushes need; use --topic \#(mock.bundleID).voip"#), "\(r.stderr)")
        #expect(mock.answersPerDevice().isEmpty, "\(mock.stdout)")
    }

    /// A header setting the validator refuses is named where it came from: a topic or priority from a variable
    /// or a profile is what to fix, not a `--topic` the user never typed.
    @Test func aRefusedHeaderSettingIsNamedWhereItCameFrom() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-label")
        let auth = [
            "--auth-key", scratch.file("AuthKey_ABCDE12345.p8"), "--team-id", "TEAMID1234", "-d",
            String(repeating: "3f2a", count: 16), "--dry-run",
        ]
        try OpenSSLFixtures.makeP8Key(at: auth[1], publicKeyPath: scratch.file("public.pem"))
        let file = try scratch.write("config.toml", "[profiles.bg]\ntopic = \"com.x\"\npriority = 10\n", mode: 0o600)
        let environment = ["XDG_CACHE_HOME": scratch.path, "APNSCTL_CONFIG": file]
        let fromVariable = try InProcess.apnsctl(
            ["send", "--push-type", "controls", "--content-changed"] + auth,
            environment: environment.merging(["APNSCTL_TOPIC": "com.x.push-type.widgets"]) { $1 })
        #expect(fromVariable.status == 65)
        #expect(
            fromVariable.stderr
                == "error: APNSCTL_TOPIC: topic \"com.x.push-type.widgets\" lacks the \".push-type.controls\" suffix that controls pushes need; use --topic com.x.push-type.controls\nerror: nothing was sent: fix APNSCTL_TOPIC as said above\n"
        )
        let fromProfile = try InProcess.apnsctl(
            ["send", "-p", "bg", "--push-type", "background", "{\"aps\":{\"content-available\":1}}"] + auth,
            environment: environment)
        #expect(fromProfile.status == 65)
        #expect(
            fromProfile.stderr.hasPrefix(
                "error: priority in profile bg (\(file):3): background pushes must not use priority 10"),
            "\(fromProfile.stderr)")
        // Typed as a flag, it is still named by the flag and its value.
        let typed = try InProcess.apnsctl(
            [
                "send", "--topic", "com.x", "--priority", "10", "--push-type", "background",
                "{\"aps\":{\"content-available\":1}}",
            ]
                + auth, environment: environment)
        #expect(typed.stderr.hasPrefix("error: --priority 10: background pushes"), "\(typed.stderr)")
    }

    /// A problem of the file's own keys, in a file flags edited, is placed where the file has it: `--content-state`
    /// (one line for the file's two) put the stale date at 6:19 of a file that has it at 9:19.
    @Test func aFileEditedByFlagsKeepsItsOwnKeysPositions() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-edited")
        let key = scratch.file("AuthKey_ABCDE12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: scratch.file("public.pem"))
        let file = try scratch.write(
            "update.json",
            try String(contentsOfFile: Repository.path("Payloads/liveactivity-update.json"), encoding: .utf8))
        let base = [
            "send", file, "--auth-key", key, "--team-id", "TEAMID1234", "--topic", "com.x", "-d",
            String(repeating: "3f2a", count: 16), "--dry-run", "--live-activity", "update",
        ]
        let plain = try InProcess.apnsctl(base, environment: ["XDG_CACHE_HOME": scratch.path])
        let edited = try InProcess.apnsctl(
            base + ["--content-state", #"{"x":1}"#], environment: ["XDG_CACHE_HOME": scratch.path])
        for r in [plain, edited] {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("warning: \(file):9:19: aps.stale-date: "), "\(r.stderr)")
        }
    }

    /// An MDM push certificate (its UID the topic) carries mdm pushes to that topic without a word; to another topic,
    /// or another type, it is warned about.
    @Test func anMDMCertificateIsJudgedByItsUID() throws {
        // (Shorter than a real one's UUID: the test certificate's CN repeats it, and a CN holds 64 characters.)
        let uid = "com.apple.mgmt.External.0a1"
        let credentials = try TestCredentials(bundleID: uid, kind: .production)
        let certificate = try credentials.writePushCertificate("mdm.pem", kind: .production)
        let base = ["send", "--cert", certificate, "-d", String(repeating: "3f2a", count: 16), "--dry-run"]
        let mdm = #"{"mdm":"5d1e8c47-1234-4a5b-9c0d-1e2f3a4b5c6d"}"#
        let own = try InProcess.apnsctl(base + [mdm])
        #expect(own.status == 0 && own.stderr.isEmpty, "\(own.stderr)")
        let other = try InProcess.apnsctl(base + ["--topic", "com.example.app", mdm])
        #expect(
            other.stderr.hasPrefix("warning: an mdm push goes to its certificate's UID, \(uid), which the device"),
            "\(other.stderr)")
        let alert = try InProcess.apnsctl(base + ["--alert", "hi"])
        #expect(
            alert.stderr.hasPrefix(
                "warning: the certificate is an MDM push certificate (UID \(uid)), which carries only"),
            "\(alert.stderr)")
    }

    /// Token auth with an `.apns` file whose bundle key is spelt otherwise: the missing topic is the file's key.
    @Test func aMisspeltBundleKeyIsNamedWhereTheTopicIsMissing() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-apns")
        let key = scratch.file("AuthKey_ABCDE12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: scratch.file("public.pem"))
        let file = try scratch.write("a.apns", #"{"aps":{"alert":"x"},"Simulator target bundle":"com.example.demo"}"#)
        let r = try InProcess.apnsctl(
            [
                "send", file, "--auth-key", key, "--team-id", "TEAMID1234", "-d", String(repeating: "3f2a", count: 16),
                "--dry-run",
            ], environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr.hasSuffix(
                "; the file's \"Simulator target bundle\" gives none: Xcode reads the key as spelt, \"Simulator Target Bundle\"\n"
            ), "\(r.stderr)")
    }

    /// A builder's suffix written by hand, nearly (`.liveactivity`), then added again: a warning names the bundle id
    /// it likely is, as one for another type's suffix does.
    @Test func aNearMissOfTheBuildersSuffixIsWarnedAbout() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-near")
        let key = scratch.file("AuthKey_ABCDE12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: scratch.file("public.pem"))
        let r = try InProcess.apnsctl(
            [
                "send", "--auth-key", key, "--team-id", "TEAMID1234", "-d", String(repeating: "3f2a", count: 16),
                "--live-activity", "update", "--content-state", "{}", "--topic", "com.example.app.LiveActivity",
                "--dry-run",
            ], environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(r.status == 0, "\(r.stderr)")
        // Only the type's own word: a bundle id ending in .widgets sent a Live Activity is no near miss.
        for topic in ["com.acme.widgets", "com.acme.remote.Control", "com.example.push-types.app"] {
            let quiet = try InProcess.apnsctl(
                [
                    "send", "--auth-key", key, "--team-id", "TEAMID1234", "-d", String(repeating: "3f2a", count: 16),
                    "--live-activity", "update", "--content-state", "{}", "--topic", topic, "--dry-run",
                ], environment: ["XDG_CACHE_HOME": scratch.path])
            #expect(quiet.status == 0 && !quiet.stderr.contains("like the suffix"), "\(topic): \(quiet.stderr)")
        }
        #expect(
            r.stderr.contains(
                "warning: --topic com.example.app.LiveActivity ends with \".LiveActivity\", like the suffix .push-type.liveactivity that liveactivity pushes take and apnsctl adds; sent to com.example.app.LiveActivity.push-type.liveactivity. If the app's bundle id is com.example.app, give --topic com.example.app"
            ), "\(r.stderr)")
    }

    /// A stray dot in a topic is refused by every command that sends one (it went out as a broadcast's, a channel's
    /// and doctor's bundle id, answered TopicDisallowed or BadTopic), named where it came from.
    @Test func aStrayDotInATopicIsRefusedByEveryCommandThatSendsOne() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-dot")
        let key = scratch.file("AuthKey_ABCDE12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: scratch.file("public.pem"))
        let token = ["--auth-key", key, "--team-id", "TEAMID1234", "--endpoint", "https://127.0.0.1:9"]
        let refusal = "error: --topic com.x.: a topic is a bundle id, words joined by single dots"
        for arguments in [
            ["channel", "create", "--topic", "com.x."],
            [
                "send", "--channel", "dHN0LXNyYw==", "--live-activity", "update", "--content-state", "{}", "--topic",
                "com.x.",
            ],
            ["doctor", "--topic", "com.x."],
        ] {
            let r = try InProcess.apnsctl(arguments + token, environment: ["XDG_CACHE_HOME": scratch.path])
            #expect(r.status == 64 && r.stderr.hasPrefix(refusal), "\(arguments): \(r.stderr)")
        }
        // An Xcode .apns file's bundle is named as the file's key, at its position, not as the topic.
        let credentials = try TestCredentials()
        let apns = try scratch.write(
            "dot.apns", #"{"Simulator Target Bundle":"com.example.demo.","aps":{"alert":"hi"}}"#)
        let file = try InProcess.apnsctl(
            ["send", apns, "--cert", credentials.pushFile, "-d", String(repeating: "3f2a", count: 16), "--dry-run"])
        // Said at the file's key, as validate says it: the file's fault (65).
        #expect(file.status == 65, "\(file.stderr)")
        #expect(
            file.stderr.contains(
                "dot.apns:1:28: Simulator Target Bundle: Simulator Target Bundle is the apns-topic send uses, and it has an empty part"
            ),
            "\(file.stderr)")
    }

    /// A certificate without a topics extension (its bundle id alone): every type with a topic suffix gets the
    /// warning a Live Activity got (widgets and controls went out without a word), and a topic it defaulted to is
    /// named as the certificate's, not as a `--topic` never given.
    @Test func aCertificateListingNoTopicsIsSaidForEveryTypeWithASuffix() throws {
        let credentials = try TestCredentials(kind: .development)
        let certificate = try credentials.writePushCertificate("dev.pem", kind: .development)
        let base = ["send", "--cert", certificate, "-d", String(repeating: "3f2a", count: 16), "--dry-run"]
        let warning =
            "warning: --cert \(certificate) lists no topics (only its bundle id com.example.demo); widgets pushes may need token auth: if APNs answers TopicDisallowed, send with --auth-key AuthKey_KEYID.p8 --team-id TEAMID\n"
        let widgets = try InProcess.apnsctl(base + ["--push-type", "widgets"])
        #expect(widgets.status == 0 && widgets.stderr == warning, "\(widgets.stderr)")
        let voip = try InProcess.apnsctl(base + ["--push-type", "voip", #"{"aps":{}}"#])
        #expect(voip.status == 65, "\(voip.stderr)")
        #expect(
            voip.stderr.hasSuffix(
                "error: nothing was sent: fix the default topic com.example.demo (the certificate's bundle id) as said above\n"
            ), "\(voip.stderr)")
        #expect(!voip.stderr.contains("--topic com.example.demo:"), "\(voip.stderr)")
        #expect(!voip.stderr.contains("may need token auth"), "the 65 says what to give: \(voip.stderr)")
        // A certificate of that very topic (a VoIP Services certificate's UID ends .voip) is no doubt.
        let voipCredentials = try TestCredentials(bundleID: "com.example.demo.voip", kind: .development)
        let voipCertificate = try voipCredentials.writePushCertificate("voip.pem", kind: .development)
        let own = try InProcess.apnsctl(
            ["send", "--cert", voipCertificate, "-d", String(repeating: "3f2a", count: 16), "--dry-run"]
                + ["--push-type", "voip", #"{"aps":{}}"#])
        #expect(own.status == 0 && own.stderr.isEmpty, "\(own.stderr)")
        let given = try InProcess.apnsctl(
            base + ["--push-type", "voip", "--topic", "com.example.demo.voip", #"{"aps":{}}"#])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("; voip pushes may need token auth"), "\(given.stderr)")
    }

    /// A problem of the whole alert the quick flags built names the flag that built it: `--title ""` alone is
    /// `--title`'s (it was credited to `--alert`, which was never given).
    @Test func anEmptyAlertIsNamedByTheFlagThatBuiltIt() throws {
        let scratch = try TemporaryDirectory(prefix: "planner-alert")
        let key = scratch.file("AuthKey_ABCDE12345.p8")
        try OpenSSLFixtures.makeP8Key(at: key, publicKeyPath: scratch.file("public.pem"))
        let auth = [
            "--auth-key", key, "--team-id", "TEAMID1234", "--topic", "com.x", "-d",
            String(repeating: "3f2a", count: 16),
            "--dry-run",
        ]
        let runs: [([String], String)] = [
            (["--title", ""], "warning: --title: alert's title is empty, so nothing is shown"),
            (["--alert", ""], "warning: --alert: alert is an empty string, so nothing is shown"),
            (["--title", "", "--alert", ""], "warning: --alert: alert's title and body are empty"),
            (
                ["--live-activity", "update", "--content-state", "{}", "--sound", "default"],
                "warning: --sound: alert has no title, subtitle, body or loc-key, so nothing is shown; add --alert TEXT\n"
            ),
        ]
        for (flags, expected) in runs {
            let r = try InProcess.apnsctl(["send"] + flags + auth, environment: ["XDG_CACHE_HOME": scratch.path])
            #expect(r.status == 0 && r.stderr.hasPrefix(expected), "\(flags): \(r.stderr)")
        }
        // A topic from an Xcode .apns file is named as the file's key, not as --topic, which was never given.
        let apns = try scratch.write(
            "voip.apns", #"{"Simulator Target Bundle":"com.example.demo.voip","aps":{"alert":"hi"}}"#)
        let fromFile = try InProcess.apnsctl(
            [
                "send", "--auth-key", key, "--team-id", "TEAMID1234", "-d", String(repeating: "3f2a", count: 16),
                "--push-type", "alert", "--dry-run", apns,
            ], environment: ["XDG_CACHE_HOME": scratch.path])
        #expect(
            fromFile.stderr.hasPrefix(#"warning: "Simulator Target Bundle" com.example.demo.voip: "#),
            "\(fromFile.stderr)")
        // A key no given flag wrote is one to add, not a flag's problem.
        let background = try InProcess.apnsctl(
            ["send", "--push-type", "background", "--alert", "hi"] + auth, environment: ["XDG_CACHE_HOME": scratch.path]
        )
        #expect(background.status == 65)
        #expect(
            background.errorLines.first
                == #"error: the payload built from --alert: background pushes need "content-available": 1; add --content-available"#,
            "\(background.stderr)")
    }

    /// `--push-type widgets` alone: the body is the content-changed push those types are (not the default
    /// alert), and the topic gets its suffix, as with --content-changed.
    @Test func widgetsAloneBuildsTheContentChangedPush() throws {
        let mock = try InProcessMock()
        let r = try InProcess.apnsctl([
            "send", "--push-type", "widgets", "--topic", "com.example.app", "--auth-key", mock.authKey,
            "--team-id", mock.teamID, "-d", String(repeating: "ab", count: 32), "--dry-run",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("apns-topic: com.example.app.push-type.widgets\n"), "\(r.stdout)")
        #expect(r.stdout.contains(#"{"aps":{"content-changed":true}}"#), "\(r.stdout)")
        #expect(r.stderr.isEmpty, "no warning about an alert nobody gave: \(r.stderr)")
    }
}
