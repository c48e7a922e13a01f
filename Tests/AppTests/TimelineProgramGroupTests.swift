import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The Timeline's program cell and its groups by program, over flows read back through the store.
@Suite("The timeline by program")
struct TimelineProgramGroupTests {
    typealias H = HistoryFixtures

    static func curl(_ pid: Int32) -> ProgramAttribution {
        .program(ProgramFacts(pid: pid, command: "curl", executable: "/usr/bin/curl", uid: 0, user: "root"))
    }
    static let python = ProgramAttribution.program(ProgramFacts(pid: 7, command: "python3", executable: nil, uid: 1000, user: nil))

    /// Flows newest first, as a page holds them: flow n (n from 0) last seen at 100 − n.
    static func page(_ programs: [ProgramAttribution?]) async throws -> [HistoryFlow] {
        let records = programs.enumerated().map { number, program in
            var record = H.record(H.key(number), first: 99 - Double(number), last: 100 - Double(number),
                                  bytes: (out: 100, in: 1_000))
            record.program = program
            return record
        }
        return try await HistoryFilterTests.flows(records).sorted { $0.stored.lastSeen > $1.stored.lastSeen }
    }

    @Test("a cell names the command and pid, or why none is named, and a burst's the one program it holds")
    func cells() {
        #expect(ProgramWording.cell(Self.curl(42)) == "curl 42")
        #expect(ProgramWording.cell(.socketGone) == "(closed)" && ProgramWording.cell(.notLocal) == "(passing)")
        #expect(ProgramWording.cell(.unavailable("no rights")) == "(unknown)" && ProgramWording.cell(nil) == "-")
        #expect(ProgramWording.cell([Self.curl(42), Self.curl(42)]) == "curl 42")
        #expect(ProgramWording.cell([Self.curl(42), Self.curl(43)]) == "curl")
        #expect(ProgramWording.cell([Self.curl(42), Self.python]) == "several")
        #expect(ProgramWording.cell([Self.curl(42), nil]) == "several")
        #expect(ProgramWording.cell([nil, nil]) == "-")
    }

    @Test("groups: one a command whatever its processes, one a reason, in the order of each group's newest flow")
    func groups() async throws {
        let flows = try await Self.page([Self.python, Self.curl(42), .socketGone, Self.curl(43), nil, Self.curl(42), .unavailable("x")])
        let groups = TimelineProgramGroup.groups(of: flows)
        #expect(groups.map(\.key) == ["program:python3", "program:curl", "socketGone", "notAsked", "unavailable"])
        #expect(groups.map(\.label) == ["python3", "curl", "No program named: closed before it was asked about",
                                        "Not asked: recorded before programs were kept",
                                        "No program named: the kernel could not be asked"])
        #expect(groups[1].flows.map(\.id) == [flows[1].id, flows[3].id, flows[5].id])
        #expect(groups[1].processes == [42, 43])
        #expect(groups[1].summary == "3 connections from 2 processes, 2.9 KiB received, 300 B sent")
        #expect(groups[0].summary == "1 connection from pid 7, 1000 B received, 100 B sent")
        #expect(groups[2].summary == "1 connection, 1000 B received, 100 B sent")
        #expect(groups.reduce(0) { $0 + $1.flows.count } == flows.count)
    }
}
