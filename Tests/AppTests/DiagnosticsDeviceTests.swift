import Shared
import Testing
import App

/// The diagnostics screen's device section: what the kernel dropped before the tunnel read it is
/// a reading and a sentence, never silent, and never a zero that nothing counted.
@Suite("Diagnostics: the tunnel's device")
struct DiagnosticsDeviceTests {
    typealias P = DiagnosticsPresentation

    static func screen(_ device: ShellStats.Device?) -> DiagnosticsScreen {
        P.screen(stats: TunnelStats(pipeline: .zero, relay: .zero, shell: device.map { ShellStats(device: $0) }), isMonitoring: true)
    }

    @Test("drops before the tunnel read are counted beside what it read, and the note says they are lost to every record")
    func dropsAreShownAndSaid() throws {
        let device = ShellStats.Device(writeDrops: ["EAGAIN": 2], kernel: DeviceKernelCounters(queueDrops: 36_790, datagramsRead: 43_210))
        let section = try #require(Self.screen(device).sections.first { $0.key == "device" })
        #expect(section.rows.map { "\($0.key)=\($0.value)" }
                == ["device.datagramsRead=43210", "device.queueDrops=36790", "device.writeDrops=2", "device.readFailures=0"])
        #expect(section.note == "Lost: the kernel dropped 36790 of the 80000 datagrams sent into the tunnel (46.0 %) before the tunnel "
                + "could read them: they came faster than it read (the TUN device's queue was full), never left the machine "
                + "and are in no capture or history.")
        #expect(Self.screen(device).text.contains("datagrams the kernel dropped before the tunnel read them  36790"))
    }

    @Test("no drops: no note; counts that could not be read say so instead of zero; no shell counters, no section")
    func noDropsUnknownAndAbsent() throws {
        let quiet = try #require(Self.screen(ShellStats.Device(kernel: DeviceKernelCounters(queueDrops: 0, datagramsRead: 9)))
            .sections.first { $0.key == "device" })
        #expect(quiet.note == nil && quiet.rows.first { $0.key == "device.queueDrops" }?.value == "0")
        let unknown = try #require(Self.screen(ShellStats.Device(kernelProblem: "the kernel answered No such device"))
            .sections.first { $0.key == "device" })
        #expect(unknown.rows.first { $0.key == "device.queueDrops" }?.value == "not known")
        #expect(unknown.note == "It is not known whether the kernel dropped datagrams before the tunnel read them: "
                + "the kernel answered No such device.")
        #expect(!Self.screen(nil).sections.contains { $0.key == "device" })
        #expect(Self.screen(nil).sections.map(\.key) == ["traffic", "relay", "namesFromTCP", "namesFromQUIC", "namesFromLookups"])
    }
}
