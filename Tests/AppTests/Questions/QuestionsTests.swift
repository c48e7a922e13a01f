import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The questions the commands and the web API share, asked directly over a real `FlowStore` in a
/// temporary data directory: what each answers, and each failure's kind and sentence.
@Suite(.serialized) struct QuestionsTests {
    typealias H = HistoryFixtures
    static let now = H.date(100)

    /// A data directory with 30 connections (every seventh UDP), two packets each.
    static func history() async throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("tv-questions")
        let store = try H.store(in: directory)
        try await H.fill(store, count: 30, packetsEach: 2)
        await store.close()
        return directory
    }

    @Test("the timeline: a filtered page newest first, the cursor to the next, and the same page again from it")
    func timeline() async throws {
        let directory = try await Self.history()
        let question = try TimelineQuestion.parse(["--data-dir", directory.url.path, "--protocol", "tcp", "--limit", "5"], now: Self.now)
        let page = try await question.answer()
        #expect(page.snapshot.flows.map(\.stored.key.proto) == Array(repeating: .tcp, count: 5))
        #expect(page.snapshot.flows.first?.stored.sni == "host-29.example")
        let cursor = try #require(page.snapshot.nextCursor)
        var next = question
        next.after = cursor
        let second = try await next.answer()
        #expect(second.snapshot.flows.first?.stored.sni == "host-23.example")
        #expect(Set(second.snapshot.flows.map(\.id)).isDisjoint(with: page.snapshot.flows.map(\.id)))
    }

    @Test("a cursor naming a connection the history lacks is not found, with what to run instead")
    func unknownCursor() async throws {
        let directory = try await Self.history()
        let question = TimelineQuestion(dataDirectory: directory.url.path, after: FlowCursor(lastSeenNanoseconds: 5, id: 4_000))
        let failure = await #expect(throws: QuestionFailure.self) { try await question.answer() }
        #expect(failure?.kind == .notFound)
        #expect(failure?.message == "the cursor 5-4000 names connection 4000, which is not in the history (removed by retention "
                + "or a clear, or mistyped): run 'tunnelvision flows' without --after to start from the newest")
    }

    @Test("no history is not found, and the directory is not created by asking")
    func noHistory() async throws {
        let parent = TemporaryDirectory("tv-questions-none")
        try FileManager.default.createDirectory(at: parent.url.appendingPathComponent("data"), withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let data = parent.url.appendingPathComponent("data")
        let failure = await #expect(throws: QuestionFailure.self) { try await ActivityQuestion(dataDirectory: data.path).answer() }
        #expect(failure?.kind == .notFound && failure?.message.hasPrefix("no history in \(data.path) yet") == true)
        #expect(!FileManager.default.fileExists(atPath: DataDirectoryLayout.database(in: data).path))
        let export = await #expect(throws: QuestionFailure.self) { try await ExportQuestion(dataDirectory: data.path, output: .stream).document() }
        #expect(export?.message.hasPrefix("nothing exported: no history in ") == true)
    }

    @Test("the activity axis counts every packet in the stretch asked, whatever the timeline's filter")
    func activity() async throws {
        let directory = try await Self.history()
        let whole = try await ActivityQuestion(dataDirectory: directory.url.path, bars: 10).answer()
        #expect(whole.axis.bars.map(\.packetCount).reduce(0, +) == 60)
        let stretch = try ActivityQuestion.parse(["--data-dir", directory.url.path, "--from", "2026-11-30T02:00:10Z",
                                                  "--to", "2026-11-30T02:00:19Z"], now: Self.now)
        let part = try await stretch.answer()
        // Connections 11 to 19 have both their packets (at n - 0.5 and n - 0.25 s) inside it.
        #expect(part.axis.bars.map(\.packetCount).reduce(0, +) == 18)
    }

    @Test("a connection the history lacks is not found; a packet past its packets too, saying how many there are")
    func flowFailures() async throws {
        let directory = try await Self.history()
        let missing = await #expect(throws: QuestionFailure.self) { try await FlowQuestion(flowID: 999, dataDirectory: directory.url.path).inspector() }
        #expect(missing?.kind == .notFound && missing?.message == "no connection 999 in the history (see 'tunnelvision flows' for the ids it holds)")
        let inspector = try await FlowQuestion(flowID: 3, dataDirectory: directory.url.path).inspector()
        #expect(inspector.rows.count == 2 && inspector.storedPacketCount == 2)
        let past = await #expect(throws: QuestionFailure.self) { try await FlowQuestion(flowID: 3, dataDirectory: directory.url.path).packet(5) }
        #expect(past?.kind == .notFound && past?.message == "connection 3 has 2 packets: ask for one from 1 to 2, not 5")
        let nothing = await #expect(throws: QuestionFailure.self) { try await FlowQuestion(flowID: 3, dataDirectory: directory.url.path).capture(.pcap) }
        #expect(nothing?.kind == .notFound)
    }

    @Test("captures: rotating with no tunnel says there is none to rotate (409's kind); a failure to ask is a failure")
    func rotation() throws {
        let directory = TemporaryDirectory("tv-questions-rotate")
        let question = CapturesQuestion(action: .rotate, dataDirectory: directory.url.path)
        let absent = TunnelControl { _, _ throws(TunnelControl.Failure) in throw .notRunning }
        #expect(throws: QuestionFailure(.noTunnel, "no tunnel is running on \(directory.url.path), so there is no capture being "
                                        + "recorded to rotate; 'tunnelvision run -- CMD' starts one (or give its --data-dir)")) {
            try question.rotate(tunnel: absent)
        }
        let broken = TunnelControl { _, _ throws(TunnelControl.Failure) in throw .failed("connection refused") }
        #expect(throws: QuestionFailure(.failed, "connection refused")) { try question.rotate(tunnel: broken) }
        let refusing = TunnelControl { _, _ in .failed("disk full") }
        #expect(throws: QuestionFailure(.failed, "the tunnel could not rotate its capture: disk full")) { try question.rotate(tunnel: refusing) }
        let rotated = try question.rotate(tunnel: TunnelControl { _, _ in .ok })
        #expect(rotated.json == #"{"rotated":true,"recording":null}"#)
    }

    @Test("the tunnel's presence: live when it answers, absent when none runs, unknown (with why) when it cannot be asked")
    func presence() {
        let url = URL(fileURLWithPath: "/nowhere")
        #expect(TunnelControl { _, _ in .ok }.presence(in: url) == .live)
        #expect(TunnelControl { _, _ throws(TunnelControl.Failure) in throw .notRunning }.presence(in: url) == .absent)
        #expect(TunnelControl { _, _ throws(TunnelControl.Failure) in throw .failed("timed out") }.presence(in: url) == .unknown("timed out"))
    }

    @Test("settings: a change is saved and keeps the others; an opt-in is saved like any value")
    func settings() throws {
        let directory = TemporaryDirectory("tv-questions-settings")
        let question = SettingsQuestion(dataDirectory: directory.url.path)
        let change = try SettingsQuestion.change(key: "retention-age", value: "7d")
        let done = try question.set(change, force: false)
        #expect(change == .retentionAge(.oneWeek) && done.text == "retention-age 1w" && done.settings.retention.maxAge == .oneWeek)
        #expect(question.reading().settings == done.settings && question.reading().problem == nil)
        let detail = try question.set(try SettingsQuestion.change(key: "capture-detail", value: "metadata"), force: false)
        #expect(detail.settings.retention == done.settings.retention && detail.settings.captureDetail == .metadataOnly)
        #expect(throws: QuestionFailure.self) { try SettingsQuestion.change(key: "colour", value: "blue") }
        // Inspection on needs a CA that can sign: refused without one, accepted once it is made.
        #expect(throws: QuestionFailure.self) { try question.set(try SettingsQuestion.change(key: "tls-inspection", value: "on"), force: false) }
        _ = try CAQuestion(dataDirectory: directory.url.path).create()
        let inspecting = try question.set(try SettingsQuestion.change(key: "tls-inspection", value: "on"), force: false)
        #expect(inspecting.settings.tlsInspectionEnabled && inspecting.settings.captureDetail == .metadataOnly)
        #expect(question.reading().settings == inspecting.settings)
    }

    @Test("the export's document in memory is whole JSON, and its summary counts what it holds")
    func exportDocument() async throws {
        let directory = try await Self.history()
        let (bytes, summary) = try await ExportQuestion(dataDirectory: directory.url.path, output: .stream).document(now: Self.now)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((document["connections"] as? [Any])?.count == 30)
        #expect(summary.result.connectionCount == 30 && summary.result.byteCount == UInt64(bytes.count) && !summary.result.truncated)
        #expect(summary.result.url == nil)
    }
}
