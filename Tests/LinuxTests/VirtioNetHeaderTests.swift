import Linux
import Shared
import Testing

/// The vnet header's ten bytes, against vectors laid out by hand from the virtio spec (1.2
/// §5.1.6: flags, gso_type, then hdr_len, gso_size, csum_start and csum_offset, little-endian).
@Suite("VirtioNetHeader")
struct VirtioNetHeaderTests {
    static func bytes(of header: VirtioNetHeader) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: VirtioNetHeader.byteCount)
        bytes.withUnsafeMutableBytes { header.store(to: $0) }
        return bytes
    }

    @Test("a whole datagram's header is ten zero bytes")
    func plain() {
        #expect(Self.bytes(of: .plain) == [UInt8](repeating: 0, count: 10))
    }

    @Test("a 64 KiB IPv4 TCP segment to be cut at 1460: NEEDS_CSUM, TCPV4, 40 header bytes, checksum at 20 + 16")
    func tcpIPv4() {
        let header = VirtioNetHeader.tcp(version: .v4, ipHeaderLength: 20, tcpHeaderLength: 20, segmentSize: 1460)
        // flags 0x01; gso_type 1; hdr_len 40 = 0x0028; gso_size 1460 = 0x05B4; csum_start 20; csum_offset 16.
        #expect(Self.bytes(of: header) == [0x01, 0x01, 0x28, 0x00, 0xB4, 0x05, 0x14, 0x00, 0x10, 0x00])
    }

    @Test("an IPv6 one: TCPV6 (4), 60 header bytes, the checksum from byte 40")
    func tcpIPv6() {
        let header = VirtioNetHeader.tcp(version: .v6, ipHeaderLength: 40, tcpHeaderLength: 20, segmentSize: 1440)
        #expect(Self.bytes(of: header) == [0x01, 0x04, 0x3C, 0x00, 0xA0, 0x05, 0x28, 0x00, 0x10, 0x00])
    }

    @Test("what the kernel writes reads back field by field, the ECN bit apart from the segmentation")
    func reads() throws {
        let kernel: [UInt8] = [0x01, 0x81, 0x34, 0x00, 0xA8, 0x05, 0x14, 0x00, 0x10, 0x00, 0x45]
        let header = try #require(kernel.withUnsafeBytes { VirtioNetHeader($0) })
        #expect(header.needsChecksum && header.segmentation == .tcpIPv4 && header.explicitCongestion)
        #expect(header.headerLength == 52 && header.segmentSize == 1448)
        #expect(header.checksumStart == 20 && header.checksumOffset == 16)
        #expect(Self.bytes(of: header) == Array(kernel.prefix(10)))
    }

    @Test("nine bytes, or a segmentation the kernel does not define, is no header")
    func refused() {
        #expect([UInt8](repeating: 0, count: 9).withUnsafeBytes { VirtioNetHeader($0) } == nil)
        #expect(([0, 2] + [UInt8](repeating: 0, count: 8)).withUnsafeBytes { VirtioNetHeader($0) } == nil)
    }
}
