import Foundation
import Testing
@testable import Shared

@Suite struct ControlChannelTests {
    static let commands: [ControlCommand] = [
        .setTLSInspectionEnabled(true), .setTLSInspectionEnabled(false), .setCaptureEnabled(true),
        .setCaptureEnabled(false), .setCaptureDetail(.metadataOnly), .setCaptureDetail(.fullPayload),
        .setPlaintextPersistenceEnabled(true), .setPlaintextPersistenceEnabled(false), .rotateCapture, .stats,
    ]

    static let busySession = TunnelStats(
        pipeline: PipelineStats(packetsHandled: 1_234_567, bytesHandled: UInt64.max,
                                parseDrops: ParseDropStats(tooShort: 2, badUDPLength: 1),
                                captureFailures: 1, captureDisabledByFailure: true,
                                lastCaptureError: "cannot write \"/var/lib/tunnelvision/captures\": No space left — ünïcødé ✓ 🚀",
                                liveFeedDrops: 9, lastStoreError: "line one\nline two\t\\ back/slash",
                                flowsEvicted: 2, plaintext: PlaintextStats(plaintextChunksWritten: 8),
                                retention: RetentionStats(retentionFailures: 1, lastRetentionError: ""),
                                dnsNames: DNSNameStats(repliesRecorded: 40, addressesLearned: 61, noAddresses: 2),
                                quicNames: QUICNameStats(initialsSeen: 5, initialsOpened: 4, initialsUnopenable: 1)),
        relay: RelayStats(tcpFlowsOpened: 17, bytesFromDevice: 4_096,
                          inspection: InspectionStats(inspectionCandidates: 3, flowsPinned: 1)),
        resolvers: ResolverStatus(announced: ["198.18.0.53", "fd00:18::53"], reportedAtStart: ["127.0.0.53"],
                                  reportedNow: ["198.18.0.53"]))

    /// A session whose control server refused clients, by reason.
    static let refusingSession: TunnelStats = {
        var stats = busySession
        stats.control = ControlStats(commandsAnswered: 12, refusedOverLong: 2_000, closedIdle: 32, refusedOverCap: 168,
                                     clientsGone: 1, acceptFailures: 0)
        return stats
    }()

    static let responses: [ControlResponse] = [
        .stats(refusingSession),
        .ok, .notRunning, .failed("No space left on device"), .failed("\"quoted\", ünïcødé, 💾 and a\nnewline"),
        .failed(""), .stats(TunnelStats()), .stats(busySession),
        .stats(TunnelStats(pipeline: .zero, relay: .zero, resolvers: nil)),
        .stats(TunnelStats(pipeline: .zero, relay: nil,
                           resolvers: ResolverStatus(announced: [], reportedAtStart: nil, reportedNow: []))),
    ]

    /// The reason a command fails to decode, or nil when it decodes.
    static func commandFailure(_ text: String) -> String? {
        do {
            _ = try ControlChannel.decodeCommand(Data(text.utf8))
            return nil
        } catch {
            switch error { case let .malformed(reason): return reason }
        }
    }

    static func responseFailure(_ data: Data) -> String? {
        do {
            _ = try ControlChannel.decodeResponse(data)
            return nil
        } catch {
            switch error { case let .malformed(reason): return reason }
        }
    }

    @Test func everyCommandRoundTrips() throws {
        for command in Self.commands {
            #expect(try ControlChannel.decodeCommand(ControlChannel.encode(command)) == command)
        }
    }

    @Test func everyResponseRoundTripsWithAndWithoutRelayAndResolvers() throws {
        for response in Self.responses {
            #expect(try ControlChannel.decodeResponse(ControlChannel.encode(response)) == response)
        }
    }

    @Test func theWireTextIsTheDocumentedOne() {
        func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
        #expect(text(ControlChannel.encode(ControlCommand.setCaptureEnabled(true)))
                == #"{"command":"setCaptureEnabled","enabled":true}"#)
        #expect(text(ControlChannel.encode(ControlCommand.setCaptureDetail(.metadataOnly)))
                == #"{"command":"setCaptureDetail","detail":"metadataOnly"}"#)
        #expect(text(ControlChannel.encode(ControlCommand.rotateCapture)) == #"{"command":"rotateCapture"}"#)
        #expect(text(ControlChannel.encode(ControlResponse.notRunning)) == #"{"response":"notRunning"}"#)
        #expect(text(ControlChannel.encode(ControlResponse.failed("disk full")))
                == #"{"message":"disk full","response":"failed"}"#)
        let stats = ControlResponse.stats(TunnelStats(
            pipeline: PipelineStats(packetsHandled: 7, lastCaptureError: "full"), relay: .zero,
            resolvers: ResolverStatus(announced: ["198.18.0.53"], reportedAtStart: nil)))
        let golden = #"{"response":"stats","stats":{"pipeline":{"bytesHandled":0,"captureDisabledByFailure":false,"#
            + #""captureFailures":0,"diskFull":false,"#
            + #""dnsNames":{"addressesLearned":0,"errorResponse":0,"flowsNamed":0,"noAddresses":0,"#
            + #""notAResponse":0,"repliesRecorded":0,"unreadableDatagrams":0,"unsupportedOpcode":0,"#
            + #""unsupportedQuestion":0,"unusableName":0},"#
            + #""flowsClosed":0,"flowsEvicted":0,"flowsExpired":0,"flowsOpened":0,"flowsRefusedAtCapacity":0,"lastCaptureError":"full","#
            + #""liveFeedDrops":0,"packetsCaptured":0,"packetsDroppedNoLocalAddress":0,"#
            + #""packetsHandled":7,"packetsLostToStoreFailures":0,"packetsPublished":0,"#
            + #""parseDrops":{"badDataOffset":0,"badHeaderLength":0,"badUDPLength":0,"extensionChainTooLong":0,"#
            + #""extensionHeaderTruncated":0,"tooShort":0,"totalLengthBeyondBuffer":0,"truncatedL4":0,"#
            + #""unsupportedVersion":0},"#
            + #""quicNames":{"flowsNamed":0,"flowsWithoutName":0,"helloIncomplete":0,"initialsOpened":0,"#
            + #""initialsSeen":0,"initialsUnopenable":0,"serverAnswersRead":0,"serverInitialsUnopenable":0},"#
            + #""quicVersionsObserved":0,"reinjectedRecorded":0,"#
            + #""storeBatchesFailed":0,"storeBatchesWritten":0},"#
            + #""relay":{"bytesFromDevice":0,"bytesToDevice":0,"connectFailures":0,"dnsQueriesSent":0,"#
            + #""dnsRepliesReceived":0,"emitterFailures":0,"plaintextUpgradesAbandoned":0,"portUnreachableAnswers":0,"#
            + #""segmentsRefused":0,"#
            + #""streamOpeningsHTTP":0,"streamOpeningsTLS":0,"streamOpeningsUnrecognised":0,"streamsUpgradedToTLS":0,"#
            + #""tcpFlowsClosed":0,"tcpFlowsOpened":0,"#
            + #""udpFlowsOpened":0},"#
            + #""resolvers":{"announced":["198.18.0.53"],"networkChanges":0,"networkChangesLearned":0}}}"#
        #expect(text(ControlChannel.encode(stats)) == golden)
    }

    @Test func aHandWrittenMessageDecodesWhateverItsOrderAndSpacing() throws {
        let typed = Data(" { \"enabled\" : false ,\n \"command\" : \"setTLSInspectionEnabled\" }\n".utf8)
        #expect(try ControlChannel.decodeCommand(typed) == .setTLSInspectionEnabled(false))
        // An optional without a value may be sent as null as well as left out.
        let nulls = Self.editedStats(of: TunnelStats()) {
            $0.message["stats"] = ["pipeline": $0.section("pipeline"), "relay": NSNull(), "resolvers": NSNull()]
            $0["pipeline", "lastStoreError"] = NSNull()
        }
        #expect(try ControlChannel.decodeResponse(nulls) == .stats(TunnelStats()))
    }

    @Test func noEncodingContainsANewlineSoMessagesCanBeFramedByLines() {
        let encoded = Self.commands.map(ControlChannel.encode) + Self.responses.map(ControlChannel.encode)
        for data in encoded {
            #expect(!data.contains(UInt8(ascii: "\n")))
        }
    }

    @Test func everyProperPrefixOfAValidMessageIsMalformed() {
        for response in [ControlResponse.stats(Self.busySession), .failed("ünïcødé"), .ok] {
            let data = ControlChannel.encode(response)
            for length in 0..<data.count {
                #expect(Self.responseFailure(data.prefix(length)) != nil, "prefix of \(length) bytes decoded")
            }
        }
        for command in Self.commands {
            let text = String(decoding: ControlChannel.encode(command), as: UTF8.self)
            for length in 0..<text.utf8.count {
                #expect(Self.commandFailure(String(text.utf8.prefix(length))!) != nil)
            }
        }
    }

    @Test func anUnknownCaseIsMalformed() {
        #expect(Self.commandFailure(#"{"command":"reboot"}"#) == #"command: unknown command "reboot""#)
        #expect(Self.commandFailure(#"{"command":"Stats"}"#) != nil)
        #expect(Self.responseFailure(Data(#"{"response":"maybe"}"#.utf8)) == #"response: unknown response "maybe""#)
    }

    @Test func anotherProgramsJSONIsMalformed() {
        #expect(Self.commandFailure(#"{"jsonrpc":"2.0","method":"x"}"#) == "missing field command")
        #expect(Self.commandFailure(#"{"jsonrpc":"2.0","method":"stats","id":1}"#) != nil)
        // The shape Swift would synthesize for an enum with associated values is not ours either.
        #expect(Self.commandFailure(#"{"setCaptureEnabled":{"_0":true}}"#) != nil)
        #expect(Self.commandFailure(#"{"stats":{}}"#) != nil)
    }

    @Test func emptyMessagesNumbersAndOtherNonObjectsAreMalformed() {
        #expect(Self.commandFailure("") == "empty message")
        for text in ["42", "true", "null", #""stats""#, "[]", #"["stats"]"#, " ", "\n", "{}"] {
            #expect(Self.commandFailure(text) != nil, "\(text) decoded")
        }
        #expect(Self.commandFailure("42") == "not a JSON object")
        #expect(Self.commandFailure("{\"command\":") == "not JSON (Unexpected end of file during JSON parse.)")
        #expect(Self.commandFailure(#"{"command":"stats"} {"command":"stats"}"#)?.hasPrefix("not JSON") == true)
    }

    @Test func aWrongTypeForAFieldIsMalformed() {
        #expect(Self.commandFailure(#"{"command":"setCaptureEnabled","enabled":"yes"}"#) == "enabled is not Bool")
        #expect(Self.commandFailure(#"{"command":"setCaptureEnabled","enabled":1}"#) != nil)
        #expect(Self.commandFailure(#"{"command":"setCaptureEnabled","enabled":null}"#) != nil)
        #expect(Self.commandFailure(#"{"command":"setCaptureEnabled"}"#) == "missing field enabled")
        #expect(Self.commandFailure(#"{"command":"setCaptureDetail","detail":"everything"}"#) != nil)
        #expect(Self.commandFailure(#"{"command":true}"#) == "command is not String")
        #expect(Self.responseFailure(Self.editedStats { $0["pipeline", "packetsHandled"] = "many" })
                == "stats.pipeline.packetsHandled is not UInt64")
        for unfit: Any in [-1, 1.5, Double(UInt64.max) * 2] {
            #expect(Self.responseFailure(Self.editedStats { $0["pipeline", "packetsHandled"] = unfit })
                    == "a number does not fit its field")
        }
    }

    @Test("a group the build does not fill yet is absent from the JSON, not zeros, and comes back absent")
    func anAbsentGroupIsAbsentNotZeros() throws {
        let bare = TunnelStats(pipeline: .zero, relay: .zero)
        let text = String(decoding: ControlChannel.encode(ControlResponse.stats(bare)), as: UTF8.self)
        for group in ["inspection", "plaintext", "retention", "resolvers"] {
            #expect(!text.contains("\"\(group)\""), "\(group) is in \(text)")
        }
        #expect(try ControlChannel.decodeResponse(Data(text.utf8)) == .stats(bare))
        // Present, the group is whole: one of its counters missing is malformed, never zero.
        let partial = Self.editedStats { $0["relay", "inspection"] = ["inspectionCandidates": 3] }
        #expect(Self.responseFailure(partial)?.hasPrefix("missing field stats.relay.inspection.") == true)
    }

    @Test func aMissingCounterIsMalformedRatherThanZero() {
        let missing = Self.editedStats { $0["relay", "tcpFlowsOpened"] = nil }
        #expect(Self.responseFailure(missing) == "missing field stats.relay.tcpFlowsOpened")
        let nested = Self.editedStats { $0["pipeline", "dnsNames"] = [String: Any]() }
        #expect(Self.responseFailure(nested)?.hasPrefix("missing field stats.pipeline.dnsNames.") == true)
        #expect(Self.responseFailure(Data(#"{"response":"stats"}"#.utf8)) == "missing field stats")
        #expect(Self.responseFailure(Data(#"{"response":"failed"}"#.utf8)) == "missing field message")
    }

    @Test func anUnknownFieldIsMalformed() {
        #expect(Self.commandFailure(#"{"command":"stats","verbose":true}"#) == "unknown field verbose")
        #expect(Self.commandFailure(#"{"command":"rotateCapture","enabled":true}"#) == "unknown field enabled")
        let extraCounter = Self.editedStats { $0["relay", "flowsTeleported"] = 3 }
        #expect(Self.responseFailure(extraCounter) == "unknown field stats.relay.flowsTeleported")
    }

    @Test func aCommandIsNotAResponseNorAResponseACommand() {
        for command in Self.commands {
            #expect(Self.responseFailure(ControlChannel.encode(command)) == "missing field response")
        }
        for response in Self.responses {
            let text = String(decoding: ControlChannel.encode(response), as: UTF8.self)
            #expect(Self.commandFailure(text) == "missing field command")
        }
    }

    @Test func theErrorDescriptionCarriesTheReason() {
        #expect(ControlMessageError.malformed("empty message").description == "malformed control message: empty message")
    }

    /// A stats response (the busy session's by default) with its JSON changed by `edit`.
    static func editedStats(of stats: TunnelStats = ControlChannelTests.busySession, _ edit: (inout StatsJSON) -> Void) -> Data {
        let data = ControlChannel.encode(ControlResponse.stats(stats))
        var json = StatsJSON(try! JSONSerialization.jsonObject(with: data) as! [String: Any])
        edit(&json)
        return try! JSONSerialization.data(withJSONObject: json.message)
    }

    /// A stats response as JSONSerialization sees it, addressed by `[section, field]`.
    struct StatsJSON {
        var message: [String: Any]

        init(_ message: [String: Any]) { self.message = message }

        func section(_ name: String) -> Any { (message["stats"] as! [String: Any])[name]! }

        subscript(section: String, field: String) -> Any? {
            get { ((message["stats"] as? [String: Any])?[section] as? [String: Any])?[field] }
            set {
                var stats = message["stats"] as! [String: Any]
                var fields = stats[section] as! [String: Any]
                fields[field] = newValue
                stats[section] = fields
                message["stats"] = stats
            }
        }
    }
}
