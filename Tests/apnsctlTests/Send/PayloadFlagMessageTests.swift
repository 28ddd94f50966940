import APNSCore
import Testing

@testable import APNSCtlCommands

/// How `send` words the payload builder's problems: each names the flag (and file) and says what to give.
@Suite struct PayloadFlagMessageTests {
    static let now: Int64 = 1_764_151_200

    static func json(_ field: PayloadField, _ text: String, file: String? = nil) -> FlagJSON {
        FlagJSON(field: field, file: file, bytes: Array(text.utf8))
    }

    static let usageErrors: [(String, @Sendable (inout PayloadFlags) -> Void, String)] = [
        (
            "content-state not an object",
            {
                $0.liveActivity = .update
                $0.contentState = json(.contentState, "[1]")
            },
            "--content-state: must be a JSON object such as {\"eta\":12}, found array"
        ),
        (
            "a whole payload as the content state",
            {
                $0.liveActivity = .update
                $0.contentState = json(
                    .contentState, #"{"aps":{"event":"update","content-state":{"eta":5}}}"#, file: "update.json")
            },
            "--content-state @update.json: a whole payload (it has \"aps\"), not the content-state object itself; give the object alone"
        ),
        (
            "the content state in its own key",
            {
                $0.liveActivity = .update
                $0.contentState = json(.contentState, #"{"content-state":{"eta":5}}"#)
            },
            "--content-state: the object is wrapped in \"content-state\"; give what it holds"
        ),
        (
            "syntax error in a file",
            {
                $0.liveActivity = .update
                $0.contentState = json(.contentState, "{\n \"eta\": 1,\n}", file: "state.json")
            },
            "--content-state @state.json: line 2, column 10: not valid JSON: trailing comma"
        ),
        (
            "attributes from stdin",
            {
                $0.liveActivity = .start
                $0.attributes = json(.attributes, "5", file: "-")
            },
            "--attributes @-: must be a JSON object"
        ),
        (
            "WHEN",
            {
                $0.liveActivity = .end
                $0.dismissalDate = "soon"
            }, "--dismissal-date soon: not a time; give now, 0"
        ),
        (
            "duration",
            {
                $0.liveActivity = .update
                $0.staleDate = "15x"
            }, "--stale-date 15x: not a time"
        ),
        (
            "relevance",
            {
                $0.liveActivity = .update
                $0.relevanceScore = "abc"
            }, "--relevance-score \"abc\": not a number"
        ),
        (
            "timestamp",
            {
                $0.liveActivity = .update
                $0.timestamp = "1h"
            }, "--timestamp \"1h\": give now"
        ),
        (
            "LA flag on an alert",
            {
                $0.alert = "x"
                $0.staleDate = "1h"
            }, "--stale-date: only Live Activity pushes carry it; add --live-activity"
        ),
        (
            "badge on a Live Activity",
            {
                $0.liveActivity = .update
                $0.badge = "1"
            }, "--badge: a Live Activity shows no badge"
        ),
        (
            "content-changed with more",
            {
                $0.contentChanged = true
                $0.alert = "x"
            }, "--alert: --content-changed builds a widgets or controls push"
        ),
        ("bad badge", { $0.badge = "-1" }, "--badge \"-1\": must be a whole number, 0 or more"),
        // A whole number past the range is one: too large, as the validator says of a payload's.
        ("huge badge", { $0.badge = "9223372036854775808" }, "--badge 9223372036854775808: too large; use a count"),
        (
            "subtitle on a Live Activity",
            {
                $0.liveActivity = .update
                $0.subtitle = "S"
            }, "--subtitle: Live Activity pushes do not carry it (their alert takes only --title, --alert and --sound)"
        ),
        (
            "content-changed with content-available",
            {
                $0.contentChanged = true
                $0.contentAvailable = true
            }, "--content-available: --content-changed builds a widgets or controls push"
        ),
    ]

    @Test(arguments: usageErrors.indices)
    func badFlagsNameTheFlag(index: Int) {
        let (name, edit, message) = Self.usageErrors[index]
        var flags = PayloadFlags()
        edit(&flags)
        do {
            _ = try PayloadBuilder.build(flags, base: nil, now: Self.now)
            Issue.record("\(name): no error")
        } catch {
            #expect(error.message.hasPrefix(message), "\(name): \(error.message)")
        }
    }

    /// A content state or attributes of the app's own with a key named `aps` (a number) or `attributes`: a property
    /// a struct may have, built into the payload as given.
    @Test func anAppsOwnKeysNamedLikePayloadKeysAreKept() throws {
        var flags = PayloadFlags()
        flags.liveActivity = .start
        flags.contentState = Self.json(.contentState, #"{"aps":3,"score":1}"#)
        flags.attributes = Self.json(.attributes, #"{"attributes":{"orderID":"A"}}"#)
        flags.attributesType = "Order"
        flags.alert = "a"
        let built = try PayloadBuilder.build(flags, base: nil, now: Self.now)
        let text = String(decoding: built, as: UTF8.self)
        #expect(text.contains(#""content-state":{"aps":3,"score":1}"#), "\(text)")
        #expect(text.contains(#""attributes":{"attributes":{"orderID":"A"}}"#), "\(text)")
    }

    /// Every value given alongside content-changed is listed, Live Activity values first, in CLI.md's order.
    @Test func contentChangedListsEveryOtherFlag() {
        #expect(
            PayloadFlagProblem.notWithContentChanged([.staleDate, .title, .liveActivity]).message
                == "--stale-date: --content-changed builds a widgets or controls push, whose aps holds only content-changed; "
                + "leave out --stale-date, --title, --live-activity")
    }

    /// Each field is named by the flag `send` declares for it.
    @Test func everyFieldIsNamedByItsFlag() {
        let flags = PayloadField.allCases.map(\.flag)
        #expect(Set(flags).count == PayloadField.allCases.count)
        #expect(flags.allSatisfy { $0.hasPrefix("--") })
        let help = APNSCtl.Send.helpMessage()
        for flag in flags { #expect(help.contains(flag), "\(flag)") }
    }
}
