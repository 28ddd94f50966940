import Testing

@testable import APNSCore

/// `PayloadBuilder`: flags and a clock in, payload bytes out (CLI.md, "Live Activities and widgets").
@Suite struct PayloadBuilderTests {
    static let now: Int64 = 1_764_151_200

    static func flags(_ edit: (inout PayloadFlags) -> Void) -> PayloadFlags {
        var f = PayloadFlags()
        edit(&f)
        return f
    }

    static func json(_ field: PayloadField, _ text: String, file: String? = nil) -> FlagJSON {
        FlagJSON(field: field, file: file, bytes: Array(text.utf8))
    }

    func build(_ f: PayloadFlags, base: String? = nil, pushType: PushType? = nil) throws -> String {
        String(
            decoding: try PayloadBuilder.build(
                f, pushType: pushType, base: base.map { PayloadBuilder.Base(Array($0.utf8)) }, now: Self.now),
            as: UTF8.self)
    }

    /// Each flag alone with `--live-activity update`, and what it adds to aps after event and timestamp.
    static let eachFlag: [(String, @Sendable (inout PayloadFlags) -> Void, String)] = [
        ("nothing", { _ in }, ""),
        (
            "content-state", { $0.contentState = json(.contentState, "{ \"eta\" : 12 }") },
            #","content-state":{"eta":12}"#
        ),
        ("attributes-type", { $0.attributesType = "DeliveryAttributes" }, #","attributes-type":"DeliveryAttributes""#),
        (
            "attributes", { $0.attributes = json(.attributes, #"{"orderID":"A17"}"#) },
            #","attributes":{"orderID":"A17"}"#
        ),
        ("title", { $0.title = "Order A17" }, #","alert":{"title":"Order A17"}"#),
        ("alert", { $0.alert = "On the way" }, #","alert":{"body":"On the way"}"#),
        ("sound", { $0.sound = "chime.caf" }, #","alert":{"sound":"chime.caf"}"#),
        ("stale-date duration", { $0.staleDate = "15m" }, #","stale-date":1764152100"#),
        ("stale-date now", { $0.staleDate = "now" }, #","stale-date":1764151200"#),
        ("dismissal-date UNIX", { $0.dismissalDate = "1764160000" }, #","dismissal-date":1764160000"#),
        ("relevance-score", { $0.relevanceScore = "0.75" }, #","relevance-score":0.75"#),
        ("relevance-score .5", { $0.relevanceScore = ".5" }, #","relevance-score":0.5"#),
        ("relevance-score +1.", { $0.relevanceScore = "+1." }, #","relevance-score":1.0"#),
        ("relevance-score -.25", { $0.relevanceScore = "-.25" }, #","relevance-score":-0.25"#),
        ("input-push-token", { $0.inputPushToken = true }, #","input-push-token":1"#),
        ("input-push-channel", { $0.inputPushChannel = "dHN0LXNyYw==" }, #","input-push-channel":"dHN0LXNyYw==""#),
    ]

    @Test(arguments: eachFlag.indices)
    func eachFlagAloneBuildsItsKey(index: Int) throws {
        let (name, edit, expected) = Self.eachFlag[index]
        let f = Self.flags {
            $0.liveActivity = .update
            edit(&$0)
        }
        #expect(try build(f) == #"{"aps":{"event":"update","timestamp":1764151200"# + expected + "}}", "\(name)")
    }

    @Test(arguments: LiveActivityEvent.allCases)
    func eachEventIsWrittenWithTheClocksTimestamp(event: LiveActivityEvent) throws {
        #expect(
            try build(Self.flags { $0.liveActivity = event })
                == #"{"aps":{"event":"\#(event.rawValue)","timestamp":1764151200}}"#)
    }

    @Test func everyFlagCombinedComesInTheTablesOrder() throws {
        let f = Self.flags {
            $0.inputPushChannel = "Y2g="
            $0.inputPushToken = true
            $0.relevanceScore = "50"
            $0.dismissalDate = "1h"
            $0.staleDate = "4h"
            $0.sound = "s.caf"
            $0.alert = "Body"
            $0.title = "Title"
            $0.attributes = Self.json(.attributes, #"{"id":1}"#)
            $0.attributesType = "A"
            $0.contentState = Self.json(.contentState, "{\"eta\":\n 12}")
            $0.liveActivity = .start
        }
        #expect(
            try build(f)
                == #"{"aps":{"event":"start","timestamp":1764151200,"content-state":{"eta":12},"attributes-type":"A","attributes":{"id":1},"alert":{"title":"Title","body":"Body","sound":"s.caf"},"stale-date":1764165600,"dismissal-date":1764154800,"relevance-score":50,"input-push-token":1,"input-push-channel":"Y2g="}}"#
        )
    }

    @Test func timestampFlagOverridesTheClock() throws {
        #expect(
            try build(
                Self.flags {
                    $0.liveActivity = .end
                    $0.timestamp = "1764150000"
                }) == #"{"aps":{"event":"end","timestamp":1764150000}}"#)
        #expect(
            try build(
                Self.flags {
                    $0.liveActivity = .end
                    $0.timestamp = "NOW"
                }) == #"{"aps":{"event":"end","timestamp":1764151200}}"#)
    }

    @Test func payloadFileIsUpdatedInPlace() throws {
        let file = """
            {
              "custom": {"z": 1, "a": [1.0, "\\u00e9"]},
              "aps": {
                "timestamp": 1762167000,
                "event": "update",
                "content-state": {"eta": 3},
                "relevance-score": 75,
                "alert": {"title": "T", "sound": "old.caf"}
              },
              "tail": true
            }
            """
        let f = Self.flags {
            $0.timestamp = "now"
            $0.contentState = Self.json(.contentState, #"{"eta":1}"#)
            $0.sound = "new.caf"
            $0.staleDate = "10m"
        }
        let expected = """
            {
              "custom": {"z": 1, "a": [1.0, "\\u00e9"]},
              "aps": {
                "timestamp": 1764151200,
                "event": "update",
                "content-state": {"eta":1},
                "relevance-score": 75,
                "alert": {"title": "T", "sound": "new.caf"},"stale-date":1764151800
              },
              "tail": true
            }
            """
        #expect(try build(f, base: file) == expected)
    }

    @Test func liveActivityOnAFileSetsTheEventAndAddsMissingKeysAfterTheOthers() throws {
        let base = #"{"x":1,"aps":{"content-state":{},"event":"start"}}"#
        #expect(
            try build(Self.flags { $0.liveActivity = .end }, base: base)
                == #"{"x":1,"aps":{"content-state":{},"event":"end","timestamp":1764151200}}"#)
        #expect(
            try build(Self.flags { $0.liveActivity = .update }, base: #"{"x":1}"#)
                == #"{"x":1,"aps":{"event":"update","timestamp":1764151200}}"#)
        #expect(
            try build(Self.flags { $0.liveActivity = .update }, base: #"{"aps":{}}"#)
                == #"{"aps":{"event":"update","timestamp":1764151200}}"#)
    }

    @Test func duplicateKeysAreAllReplaced() throws {
        #expect(
            try build(Self.flags { $0.timestamp = "5" }, base: #"{"aps":{"event":"end","timestamp":1,"timestamp":2}}"#)
                == #"{"aps":{"event":"end","timestamp":5,"timestamp":5}}"#)
    }

    @Test func stringAlertInAFileStaysTheBody() throws {
        #expect(
            try build(Self.flags { $0.title = "T" }, base: #"{"aps":{"event":"update","alert":"B"}}"#)
                == #"{"aps":{"event":"update","alert":{"title":"T","body":"B"}}}"#)
    }

    @Test func badOrUnreadablePayloadsAreLeftForTheValidator() throws {
        for base in ["{not json", "[1]", #"{"aps":5}"#] {
            #expect(try build(Self.flags { $0.liveActivity = .update }, base: base) == base)
        }
    }

    @Test func quickAlertFlags() throws {
        #expect(try build(PayloadFlags()) == #"{"aps":{"alert":"Hello from apnsctl"}}"#)
        #expect(
            try build(
                Self.flags {
                    $0.alert = "Hi"
                    $0.badge = "2"
                    $0.sound = "default"
                }) == #"{"aps":{"alert":"Hi","badge":2,"sound":"default"}}"#)
        #expect(
            try build(
                Self.flags {
                    $0.title = "T"
                    $0.alert = "B"
                }) == #"{"aps":{"alert":{"title":"T","body":"B"}}}"#)
        #expect(try build(Self.flags { $0.title = "T" }) == #"{"aps":{"alert":{"title":"T"}}}"#)
        #expect(
            try build(
                Self.flags {
                    $0.alert = "x"
                    $0.relevanceScore = "0.5"
                }) == #"{"aps":{"alert":"x","relevance-score":0.5}}"#)
    }

    @Test func pushTypeLiveActivityMakesAlertFlagsLiveActivityOnes() throws {
        #expect(
            try build(
                Self.flags {
                    $0.alert = "B"
                    $0.contentState = Self.json(.contentState, "{}")
                }, pushType: .liveactivity)
                == #"{"aps":{"content-state":{},"alert":{"body":"B"}}}"#)
        #expect(
            try build(Self.flags { $0.sound = "s" }, base: #"{"aps":{"event":"update"}}"#)
                == #"{"aps":{"event":"update","alert":{"sound":"s"}}}"#)
    }

    @Test func contentChanged() throws {
        #expect(try build(Self.flags { $0.contentChanged = true }) == #"{"aps":{"content-changed":true}}"#)
    }

    /// Each wrong value or combination, and the problem that says which value it is (the command line words it).
    static let usageErrors: [(String, @Sendable (inout PayloadFlags) -> Void, @Sendable (PayloadFlagProblem) -> Bool)] =
        [
            (
                "content-state not an object",
                {
                    $0.liveActivity = .update
                    $0.contentState = json(.contentState, "[1]")
                },
                { $0 == .notAnObject(.contentState, file: nil, found: "array") }
            ),
            (
                "syntax error in a file",
                {
                    $0.liveActivity = .update
                    $0.contentState = json(.contentState, "{\n \"eta\": 1,\n}", file: "state.json")
                },
                {
                    if case .notJSON(.contentState, "state.json", let e) = $0 {
                        e.line == 2 && e.column == 10 && e.message.hasPrefix("trailing comma")
                    } else {
                        false
                    }
                }
            ),
            (
                "attributes from stdin",
                {
                    $0.liveActivity = .start
                    $0.attributes = json(.attributes, "5", file: "-")
                },
                { if case .notAnObject(.attributes, "-", _) = $0 { true } else { false } }
            ),
            (
                "WHEN",
                {
                    $0.liveActivity = .end
                    $0.dismissalDate = "soon"
                },
                {
                    if case .badTime(.dismissalDate, let p) = $0 {
                        p.message.hasPrefix("soon: not a time; give now, 0")
                    } else {
                        false
                    }
                }
            ),
            (
                "duration",
                {
                    $0.liveActivity = .update
                    $0.staleDate = "15x"
                },
                { if case .badTime(.staleDate, let p) = $0 { p.message.hasPrefix("15x: not a time") } else { false } }
            ),
            (
                "relevance",
                {
                    $0.liveActivity = .update
                    $0.relevanceScore = "abc"
                }, { $0 == .badRelevanceScore("abc") }
            ),
            (
                "relevance, a point alone",
                {
                    $0.liveActivity = .update
                    $0.relevanceScore = "-."
                }, { $0 == .badRelevanceScore("-.") }
            ),
            (
                "relevance, two signs",
                {
                    $0.liveActivity = .update
                    $0.relevanceScore = "+-1"
                }, { $0 == .badRelevanceScore("+-1") }
            ),
            (
                "timestamp",
                {
                    $0.liveActivity = .update
                    $0.timestamp = "1h"
                }, { $0 == .badTimestamp("1h") }
            ),
            (
                "LA flag on an alert",
                {
                    $0.alert = "x"
                    $0.staleDate = "1h"
                }, { $0 == .liveActivityOnly(.staleDate) }
            ),
            (
                "badge on a Live Activity",
                {
                    $0.liveActivity = .update
                    $0.badge = "1"
                }, { $0 == .badgeOnLiveActivity }
            ),
            (
                "content-changed with more",
                {
                    $0.contentChanged = true
                    $0.alert = "x"
                    $0.timestamp = "now"
                    $0.liveActivity = .end
                },
                { $0 == .notWithContentChanged([.timestamp, .alert, .liveActivity]) }
            ),
            ("bad badge", { $0.badge = "-1" }, { $0 == .badBadge("-1") }),
        ]

    @Test(arguments: usageErrors.indices)
    func badFlagsSayWhichValue(index: Int) {
        let (name, edit, matches) = Self.usageErrors[index]
        do {
            _ = try PayloadBuilder.build(Self.flags(edit), base: nil, now: Self.now)
            Issue.record("\(name): no error")
        } catch {
            #expect(matches(error), "\(name): \(error)")
        }
    }

    @Test func kindFollowsFlagsPushTypeAndPayload() {
        #expect(
            PayloadBuilder.kind(
                of: PayloadFlags(), pushType: nil, base: PayloadBuilder.Base(Array(#"{"aps":{"event":"end"}}"#.utf8)))
                == .liveActivity)
        #expect(
            PayloadBuilder.kind(
                of: PayloadFlags(), pushType: nil, base: PayloadBuilder.Base(Array(#"{"aps":{"alert":"x"}}"#.utf8)))
                == .alert)
        #expect(PayloadBuilder.kind(of: PayloadFlags(), pushType: .liveactivity, base: nil) == .liveActivity)
        #expect(
            PayloadBuilder.kind(of: Self.flags { $0.contentChanged = true }, pushType: .widgets, base: nil)
                == .contentChanged)
    }

    @Test func whenSharesExpirationsParser() throws {
        #expect(try TimeValue.parse("2d", now: 100, as: .expiration) == 172_900)
        #expect(throws: TimeValue.Problem.self) { try TimeValue.parse("now", now: 100, as: .expiration) }
        #expect(try TimeValue.parse("now", now: 100, as: .activityDate) == 100)
    }
}
