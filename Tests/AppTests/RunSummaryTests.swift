import Foundation
import Shared
import TestSupport
import Testing
@testable import App

@Suite("The summary printed when a monitored command ends")
struct RunSummaryTests {
    static let web = RunSummary.Connection(proto: .tcp, remote: IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 80),
                                           name: "lab.test", bytesOut: 78, bytesIn: 104_857_600, packets: 71_234,
                                           duration: 1.5)
    static let dns = RunSummary.Connection(proto: .udp, remote: IPEndpoint(address: IPAddress(parsing: "fd00:19::2")!, port: 53),
                                           name: nil, bytesOut: 31, bytesIn: 47, packets: 2, duration: 0.0125)

    @Test("the table names each far end with its bytes both ways, packets and duration")
    func table() {
        let summary = RunSummary(command: "curl", exitStatus: 0, signal: nil, connections: .known([Self.web, Self.dns]),
                                 captureFiles: [.init(path: "/d/captures/a.pcap", bytes: 2048)], databasePath: "/d/TunnelVision.sqlite")
        #expect(summary.text() == """
        curl exited with status 0
        2 connections:
          PROTO  REMOTE           NAME      OUT   IN         PACKETS  DURATION
          TCP    198.19.0.2:80    lab.test  78 B  100.0 MiB  71234    1.500 s
          UDP    [fd00:19::2]:53  -         31 B  47 B       2        0.013 s
        captures: /d/captures/a.pcap (2.0 KiB)
        history:  /d/TunnelVision.sqlite
        """)
    }

    @Test("a command killed by a signal, with nothing captured and no connection, says so")
    func killedAndEmpty() {
        let summary = RunSummary(command: "sleep", exitStatus: nil, signal: 9, connections: .known([]), captureFiles: [],
                                 databasePath: "/d/db")
        #expect(summary.text() == "sleep was killed by signal 9\n0 connections:\ncaptures: none\nhistory:  /d/db")
    }

    @Test("the JSON form carries the same facts, escaped")
    func json() throws {
        let summary = RunSummary(command: "say \"hi\"", exitStatus: 3, signal: nil, connections: .known([Self.dns]),
                                 captureFiles: [], databasePath: "/d/db")
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(object["command"] as? String == "say \"hi\"")
        #expect(object["exitStatus"] as? Int == 3)
        let connection = try #require((object["connections"] as? [[String: Any]])?.first)
        #expect(connection["protocol"] as? String == "UDP")
        #expect((connection["remote"] as? [String: Any])?["address"] as? String == "fd00:19::2")
        #expect(connection["bytesIn"] as? Int == 47)
        #expect(connection["name"] is NSNull)
    }

    @Test("recording that stopped on a full disk is one line of the text and an entry of the JSON each")
    func recordingStopped() throws {
        let stops = [RecordingStop(part: .capture, packetsRecorded: 2_731, diskFull: true, reason: "cannot write capture file"),
                     RecordingStop(part: .history, packetsRecorded: 1, diskFull: false, reason: "the disk failed")]
        let summary = RunSummary(command: "curl", exitStatus: 0, signal: nil, connections: .known([]), captureFiles: [],
                                 databasePath: "/d/db", recordingStops: stops)
        #expect(summary.text().hasSuffix("""
            history:  /d/db
            recording: capture stopped after 2731 packets: the disk was full; history stopped after 1 packet: the disk failed
            """))
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let entries = try #require(object["recordingStopped"] as? [[String: Any]])
        #expect(entries.map { $0["part"] as? String } == ["capture", "history"])
        #expect(entries.map { $0["diskFull"] as? Bool } == [true, false])
        #expect(entries.first?["packetsRecorded"] as? Int == 2_731)
        let quiet = RunSummary(command: "true", exitStatus: 0, signal: nil, connections: .known([]), captureFiles: [],
                               databasePath: "/d/db")
        #expect(!quiet.text().contains("recording"))
    }

    @Test("a stored flow becomes a connection to its far end, whichever side the device is on")
    func fromTheStore() async throws {
        let directory = TemporaryDirectory()
        let store = try FlowStore(dataDirectory: directory.url)
        let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
        let low = IPEndpoint(address: IPAddress(parsing: "1.1.1.1")!, port: 443)   // sorts before the device
        var record = FlowRecord(key: FlowKey(proto: .tcp, source: device, destination: low), firstSeen: 1_000, tlsStatus: .encrypted)
        record.lastSeen = 2_000_001_000
        record.bytesOut = 10
        record.bytesIn = 20
        record.packetCount = 3
        try await store.upsertFlow(record)
        let flow = try #require(try await store.recentFlows(limit: 1, before: nil).first)
        let connection = RunSummary.Connection(flow)
        #expect(connection.remote == low)
        #expect(connection.bytesOut == 10 && connection.bytesIn == 20 && connection.packets == 3)
        #expect(abs(connection.duration - 2) < 0.001)
    }

    static let lostBatches = RecordingLosses(storeBatchesFailed: 2, packetsLostToStoreFailures: 120,
                                             lastStoreError: "the disk holding the history /d/db is full")

    @Test("writes that failed during the run make the list incomplete, said above it, never a plain count")
    func incompleteHistory() {
        let summary = RunSummary(command: "curl", exitStatus: 0, signal: nil,
                                 connections: RunSummary.Connections.known([Self.dns]).recorded(with: Self.lostBatches),
                                 captureFiles: [], databasePath: "/d/db")
        #expect(summary.text() == """
        curl exited with status 0
        history incomplete: 2 batches of history (120 packets) could not be written — the last because the disk holding the history /d/db is full
        1 connection recorded (some may be missing or counted short):
          PROTO  REMOTE           NAME  OUT   IN    PACKETS  DURATION
          UDP    [fd00:19::2]:53  -     31 B  47 B  2        0.013 s
        captures: none
        history:  /d/db
        """)
        let empty = RunSummary(command: "curl", exitStatus: 0, signal: nil,
                               connections: RunSummary.Connections.known([]).recorded(with: Self.lostBatches),
                               captureFiles: [], databasePath: "/d/db")
        #expect(!empty.text().contains("0 connections:"))
        #expect(empty.text().contains("\n0 connections recorded (some may be missing or counted short)\ncaptures"))
    }

    @Test("no losses leave the list as it is; losses over an unreadable history add to its reason")
    func lossesCombine() {
        #expect(RunSummary.Connections.known([Self.web]).recorded(with: RecordingLosses()) == .known([Self.web]))
        #expect(RunSummary.Connections.unreadable("the history is damaged").recorded(with: Self.lostBatches)
                == .unreadable("the history is damaged; and 2 batches of history (120 packets) could not be written — "
                               + "the last because the disk holding the history /d/db is full"))
        #expect(RecordingLosses(PipelineStats(captureFailures: 1, captureDisabledByFailure: true,
                                              lastCaptureError: "cannot write capture file /d/c.pcap: No space left on device"))
                    .captureProblem == "1 capture write failed (the last: cannot write capture file /d/c.pcap: No space left on "
                    + "device); capture stopped at the failure, so the files end early")
        #expect(RecordingLosses(PipelineStats()).captureProblem == nil && RecordingLosses(PipelineStats()).historyProblem == nil)
    }

    @Test("the JSON says whether the history and the captures are complete, and why not")
    func jsonCompleteness() throws {
        func object(_ summary: RunSummary) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        }
        let whole = try object(RunSummary(command: "c", exitStatus: 0, signal: nil, connections: .known([]), captureFiles: [],
                                          databasePath: "/d/db"))
        #expect(whole["historyComplete"] as? Bool == true && whole["historyProblem"] is NSNull)
        #expect(whole["captureComplete"] as? Bool == true && whole["captureProblem"] is NSNull)
        let short = try object(RunSummary(command: "c", exitStatus: 0, signal: nil,
                                          connections: RunSummary.Connections.known([Self.dns]).recorded(with: Self.lostBatches),
                                          captureFiles: [], captureProblem: "1 capture write failed", databasePath: "/d/db"))
        #expect(short["historyComplete"] as? Bool == false)
        #expect((short["historyProblem"] as? String)?.hasPrefix("2 batches of history (120 packets) could not be written") == true)
        #expect((short["connections"] as? [Any])?.count == 1)
        #expect(short["captureComplete"] as? Bool == false && short["captureProblem"] as? String == "1 capture write failed")
        let unreadable = try object(RunSummary(command: "c", exitStatus: 0, signal: nil, connections: .unreadable("damaged"),
                                               captureFiles: [], databasePath: "/d/db"))
        #expect(unreadable["connections"] is NSNull && unreadable["historyComplete"] as? Bool == false)
        #expect(unreadable["historyProblem"] as? String == "damaged")
    }

    @Test("sizes read in binary units")
    func sizes() {
        #expect(ByteCountText.binary(0) == "0 B")
        #expect(ByteCountText.binary(1023) == "1023 B")
        #expect(ByteCountText.binary(1536) == "1.5 KiB")
        #expect(ByteCountText.binary(5 << 30) == "5.0 GiB")
    }
}

@Suite("A run's summary says how to read its history again")
struct RunSummaryReadingCommandTests {
    @Test("the history line ends with the command that reads it, and the JSON carries it")
    func readingCommand() throws {
        let summary = RunSummary(command: "curl", exitStatus: 0, signal: nil, connections: .known([]), captureFiles: [],
                                 databasePath: "/var/lib/tunnelvision/TunnelVision.sqlite",
                                 readingCommand: "sudo tunnelvision flows")
        #expect(summary.text().hasSuffix("history:  /var/lib/tunnelvision/TunnelVision.sqlite — read it with: sudo tunnelvision flows"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(object["readWith"] as? String == "sudo tunnelvision flows")
    }

    @Test("connections retention removed from the history while the run went are said under the history, with the age and why")
    func historyPrunedSaid() throws {
        var summary = RunSummary(command: "sleep", exitStatus: 0, signal: nil, connections: .known([]), captureFiles: [],
                                 databasePath: "/d/db")
        #expect(!summary.text().contains("retention removed"))
        summary.historyPruned = RunSummary.HistoryPruning(count: 407, ageLimit: .oneWeek)
        #expect(summary.text().hasSuffix("""
            history:  /d/db
                      retention removed 407 connections older than a week from the history (any session's; what 'analyze' \
            added is dated by its capture), as the setting retention-age asks
            """))
        let object = try #require(JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(object["historyPruned"] as? Int == 407)
    }
}
