import Foundation
import Shared
import TestSupport
import Testing
@testable import App

/// A run's summary lists its connections as the timeline does: a burst is one row.
@Suite("The summary of a run summarises a burst")
struct RunSummaryBurstsTests {
    static let start = Date(timeIntervalSince1970: 1_796_004_000)

    static func burst(_ count: Int) -> [RunSummary.Connection] {
        (0..<count).map {
            RunSummary.Connection(proto: .tcp, remote: IPEndpoint(address: IPAddress(parsing: "198.19.0.13")!, port: 8080),
                                  name: "files.demo.test", bytesOut: 100, bytesIn: 1_000, packets: 6, duration: 0.2,
                                  firstSeen: start + Double($0) * 0.01, tlsStatus: .plaintext)
        }
    }

    static let lookup = RunSummary.Connection(proto: .udp, remote: IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 53),
                                              name: nil, bytesOut: 31, bytesIn: 47, packets: 2, duration: 0.0125,
                                              firstSeen: start - 1, tlsStatus: .plaintext)

    @Test("fifty connections to one host started together are one row with their sums and how close they started")
    func text() {
        let summary = RunSummary(command: "demo", exitStatus: 0, signal: nil, connections: .known([Self.lookup] + Self.burst(50)),
                                 captureFiles: [], databasePath: "/d/db")
        #expect(summary.text() == """
        demo exited with status 0
        51 connections:
          PROTO  REMOTE            NAME                                                    OUT      IN        PACKETS  DURATION
          UDP    198.19.0.2:53     -                                                       31 B     47 B      2        0.013 s
          TCP    198.19.0.13:8080  files.demo.test — 50 connections started within 490 ms  4.9 KiB  48.8 KiB  300      0.690 s
        captures: none
        history:  /d/db
        """)
    }

    @Test("four are four rows; the JSON lists every connection and says where each burst starts and how long it is")
    func jsonAndMinimum() throws {
        let few = RunSummary(command: "demo", exitStatus: 0, signal: nil, connections: .known(Self.burst(4)),
                             captureFiles: [], databasePath: "/d/db")
        #expect(few.text().components(separatedBy: "\n").filter { $0.contains("files.demo.test") }.count == 4)
        #expect(try PythonJSON.value(few.json(), "bursts") == "[]")
        let many = RunSummary(command: "demo", exitStatus: 0, signal: nil,
                              connections: .known([Self.lookup] + Self.burst(7)), captureFiles: [], databasePath: "/d/db")
        #expect(try PythonJSON.value(many.json(), "bursts") == #"[{"count": 7, "first": 1}]"#)
        #expect(try PythonJSON.value(many.json(), "connections").components(separatedBy: "\"protocol\"").count == 9)
    }
}
