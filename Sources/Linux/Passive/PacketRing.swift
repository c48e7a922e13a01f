#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Shared
import Synchronization

/// The passive target's source (DESIGN.md § What is monitored, passive): an AF_PACKET socket with
/// a TPACKET_V3 ring (packet(7)) on one interface or on all of them. The kernel copies every
/// IP packet the interface sends or receives into the ring's blocks; the loop reads whole blocks
/// in place, with no system call per packet, and gives them back. Nothing is routed or relayed:
/// what it sees has already gone by.
///
/// Sized for offloads: a veth or a NIC with GRO hands over frames of up to 64 KiB, and a block
/// holds many of them, so they arrive whole (`ctv_ring_packet.captured` says when one did not).
/// What the kernel could not fit in the ring it counts (`PACKET_STATISTICS`): `kernelCounters`
/// adds them up, as the ask resets them.
///
/// Owned by the loop thread, but for `kernelCounters`, which serialises itself.
package final class PacketRing {
    /// 10 blocks of 1 MiB: about 8 ms of a 10 Gbit/s link, and 16 offloaded 64 KiB frames per
    /// block. The pages are the kernel's, mapped once, and count in the service's resident memory
    /// (the 60 MB). Measured (`tvlab bench tunnel`, iperf3 streams of 13–20 Gbit/s
    /// watched, one run each): 16 blocks dropped 0.009 % of the packets, 12 blocks 0.008 %,
    /// 10 blocks 0.005 %, 8 blocks 0.124 %.
    package static let blockSize: UInt32 = 1 << 20
    package static let blockCount: UInt32 = 10
    /// How long a block that is not full waits before the kernel hands it over: what a quiet link's
    /// packets wait before the live feed shows them.
    static let retireMilliseconds: UInt32 = 20

    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// No interface by that name in this network namespace.
        case noSuchInterface(String)
        /// A step of the socket's setup failed (EPERM: capturing needs CAP_NET_RAW).
        case setup(step: String, errno: Int32)

        package var description: String {
            switch self {
            case .noSuchInterface(let name): "no interface \(name.debugDescription) in this network namespace (ip link shows them; any is every one)"
            case .setup(let step, let code):
                "cannot capture: \(step) failed: \(SystemError.text(code))"
                    + (code == EPERM ? " (capturing needs root, or CAP_NET_RAW)" : "")
            }
        }
    }

    /// `any`: every interface of the namespace.
    static let everyInterface = "any"

    package let interface: String
    /// 0 for every interface.
    let interfaceIndex: Int32
    /// The loopback interface's index: on every interface its packets are seen twice, as sent and
    /// as received, and only the received copy is kept.
    private let loopbackIndex: Int32
    private var ring = ctv_packet_ring()
    private var nextBlock: UInt32 = 0
    /// The kernel's counts so far (asked from any thread).
    private let counted = Mutex(DeviceKernelCounters(queueDrops: 0, datagramsRead: 0))
    /// Frames of other protocols than IPv4 and IPv6 (ARP…), skipped (loop thread).
    package private(set) var framesNotIP: UInt64 = 0
    /// Packets cut because they did not fit a block (loop thread).
    package private(set) var framesCut: UInt64 = 0

    package init(interface: String) throws(Failure) {
        self.interface = interface
        if interface == Self.everyInterface {
            interfaceIndex = 0
        } else {
            let index = if_nametoindex(interface)
            guard index != 0 else { throw .noSuchInterface(interface) }
            interfaceIndex = Int32(index)
        }
        loopbackIndex = Int32(if_nametoindex("lo"))
        var step: UnsafePointer<CChar>?
        let code = ctv_packet_ring_open(interfaceIndex, Self.blockSize, Self.blockCount, Self.retireMilliseconds, &ring, &step)
        guard code == 0 else { throw .setup(step: step.map { String(cString: $0) } ?? "setup", errno: code) }
    }

    deinit { ctv_packet_ring_close(&ring) }

    /// Readable while a block waits.
    package var descriptor: Int32 { ring.descriptor }

    /// One IP packet of the ring, valid only inside `readBlocks`' body.
    package struct Packet {
        package let bytes: UnsafeRawBufferPointer
        /// Its length on the wire (more than `bytes.count` when it was cut).
        package let length: Int
        package let nanosecondsSince1970: Int64
        /// Sent out of the interface (PACKET_OUTGOING), rather than received on it.
        package let outgoing: Bool
    }

    /// Hands each IP packet of the blocks ready to `body`, gives the blocks back, and says how many
    /// blocks there were (at most `limit`, so the loop serves its timers between bursts).
    func readBlocks(limit: Int = 8, _ body: (Packet) -> Void) -> Int {
        var blocks = 0
        var described = ctv_ring_packet()
        let outgoing = ctv_packet_outgoing()
        let ipv4 = ctv_ethertype_ipv4(), ipv6 = ctv_ethertype_ipv6()
        while blocks < limit, let block = ctv_packet_ring_ready_block(&ring, nextBlock) {
            var packet = ctv_packet_block_first(block)
            for _ in 0..<ctv_packet_block_packets(block) {
                guard let current = packet else { break }
                ctv_packet_describe(current, &described)
                packet = ctv_packet_next(current)
                guard described.protocol == ipv4 || described.protocol == ipv6 else {
                    framesNotIP &+= 1
                    continue
                }
                if described.packet_type == outgoing && described.interface_index == loopbackIndex && loopbackIndex != 0 {
                    continue
                }
                if described.captured < described.length { framesCut &+= 1 }
                body(Packet(bytes: UnsafeRawBufferPointer(start: described.data, count: Int(described.captured)),
                            length: Int(described.length),
                            nanosecondsSince1970: Int64(described.seconds) * 1_000_000_000 + Int64(described.nanoseconds),
                            outgoing: described.packet_type == outgoing))
            }
            ctv_packet_block_release(block)
            nextBlock = (nextBlock + 1) % ring.block_count
            blocks += 1
        }
        return blocks
    }

    /// What the kernel counted for the socket since it opened: packets it handed over, and those
    /// it dropped because the ring was full (the reader fell behind).
    package func kernelCounters() -> Result<DeviceKernelCounters, Failure> {
        let descriptor = ring.descriptor
        return counted.withLock { counted in
            var packets: UInt32 = 0, drops: UInt32 = 0, freezes: UInt32 = 0
            let code = ctv_packet_ring_statistics(descriptor, &packets, &drops, &freezes)
            guard code == 0 else { return .failure(.setup(step: "PACKET_STATISTICS", errno: code)) }
            // tp_packets counts the drops too.
            counted.queueDrops &+= UInt64(drops)
            counted.datagramsRead &+= UInt64(packets &- drops)
            return .success(counted)
        }
    }
}
