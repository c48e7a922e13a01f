import Foundation
import Shared
import Testing
@testable import App

/// What the run summary says of captures retention deleted while the run went on, and of the
/// datagrams the kernel dropped before the tunnel read them: said, never listed or counted as if fine.
@Suite("The run summary: captures gone and drops before the tunnel")
struct RunSummaryLossesTests {
    static func summary(gone: [String] = [], drops: RunSummary.DeviceDrops?) -> RunSummary {
        var summary = RunSummary(command: "flood", exitStatus: 0, signal: nil, connections: .known([]),
                                 captureFiles: [.init(path: "/d/captures/c.pcap", bytes: 1024)], databasePath: "/d/db")
        summary.captureFilesGone = gone
        summary.deviceDrops = drops
        return summary
    }

    @Test("files retention deleted are counted under the ones still there, never listed; the kernel's drops are one line")
    func goneAndDroppedAreSaid() {
        let text = Self.summary(gone: ["/d/captures/a.pcap", "/d/captures/b.pcap"],
                                drops: .counted(DeviceKernelCounters(queueDrops: 36_790, datagramsRead: 43_210))).text()
        #expect(text == """
        flood exited with status 0
        0 connections:
        captures: /d/captures/c.pcap (1.0 KiB)
                  2 earlier capture files of this run no longer there: deleted while it ran, by retention to keep the captures within their limits (or by hand)
        lost before the tunnel: the kernel dropped 36790 of the 80000 datagrams sent into the tunnel (46.0 %) before the tunnel could read them: they came faster than it read (the TUN device's queue was full), never left the machine and are in no capture or history
        history:  /d/db
        """)
    }

    @Test("no drops and nothing gone add no line; counts that could not be read are said as not known")
    func quietAndUnknown() {
        let quiet = Self.summary(drops: .counted(DeviceKernelCounters(queueDrops: 0, datagramsRead: 12))).text()
        #expect(!quiet.contains("lost before") && !quiet.contains("no longer there"))
        let unknown = Self.summary(drops: .unknown("the kernel answered No such device")).text()
        #expect(unknown.contains("drops before the tunnel: not known whether the kernel dropped datagrams before the tunnel read them: "
                                 + "the kernel answered No such device"))
    }

    @Test("the JSON names the files gone and carries the kernel's counts, null with the reason when not known")
    func theJSON() throws {
        let counted = try #require(try JSONSerialization.jsonObject(with: Data(Self.summary(
            gone: ["/d/captures/a.pcap"], drops: .counted(DeviceKernelCounters(queueDrops: 5, datagramsRead: 7))).json().utf8)) as? [String: Any])
        #expect(counted["captureFilesGone"] as? [String] == ["/d/captures/a.pcap"])
        #expect(counted["deviceQueueDrops"] as? Int == 5 && counted["deviceDatagramsRead"] as? Int == 7)
        #expect(counted["deviceCountsProblem"] is NSNull)
        let unknown = try #require(try JSONSerialization.jsonObject(with: Data(Self.summary(drops: .unknown("EPERM")).json().utf8))
            as? [String: Any])
        #expect(unknown["deviceQueueDrops"] is NSNull && unknown["deviceCountsProblem"] as? String == "EPERM")
        #expect(unknown["captureFilesGone"] as? [String] == [])
    }
}
