import Foundation

/// Captures of every kind `packets` and `analyze` read, as other tools write them — generated at
/// test time, never committed: scapy builds the frames, Wireshark's editcap and mergecap write
/// pcapng (microsecond and nanosecond interfaces, several interfaces of different link types), and
/// a few lines of `struct` write what Wireshark's tools never do (a big-endian section, a binary
/// clock, obsolete and simple packet blocks, blocks to skip, a second section in the other byte
/// order). tshark, not our reader, says what is in each.
package enum ForeignCaptureCorpus {
    /// Readable captures, by file name.
    package static let readable = [
        "raw.pcap", "raw.pcapng", "ethernet.pcap", "ethernet.pcapng", "ethernet-ns.pcap", "ethernet-ns.pcapng",
        "null-le.pcap", "null-le.pcapng", "null-be.pcap", "null-be.pcapng", "ppp.pcap", "ppp.pcapng",
        "sll.pcap", "sll.pcapng", "sll2.pcap", "sll2.pcapng", "merged.pcapng", "handmade.pcapng",
    ]
    /// 802.11 frames under radiotap, as pcap and pcapng: not read, with IP inside.
    package static let wifi = ["wifi.pcap", "wifi.pcapng"]
    /// `raw.pcapng` cut in the middle of its last block.
    package static let cut = "cut.pcapng"

    /// Writes the corpus into `directory` (python3 with scapy, editcap, mergecap: scripts/test installs them).
    package static func write(into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, directory.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey:
                "the capture corpus could not be written (python3 -m pip install scapy; apt-get install tshark): "
                + String(decoding: message, as: UTF8.self)])
        }
    }

    static let script = #"""
        import os, struct, subprocess, sys
        from scapy.all import ARP, CookedLinux, Dot1Q, Ether, IP, IPv6, TCP, UDP
        from scapy.layers.l2 import CookedLinuxV2

        out = sys.argv[1]
        def path(name): return os.path.join(out, name)
        T0 = 1796000000.25

        def datagrams():
            # Two TCP conversations over IPv4, one UDP over IPv6, a TSO segment (IPv4 total length 0).
            items = []
            for n in range(2):
                a, b, sport = "198.18.0.%d" % (n + 1), "198.18.1.%d" % (n + 1), 40000 + n
                items.append(IP(src=a, dst=b) / TCP(sport=sport, dport=443, flags="S", seq=1000))
                items.append(IP(src=b, dst=a) / TCP(sport=443, dport=sport, flags="SA", seq=5000, ack=1001))
                items.append(IP(src=a, dst=b) / TCP(sport=sport, dport=443, flags="PA", seq=1001, ack=5001) / (b"x" * (100 + n)))
            items.append(IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=5353, dport=53) / b"query")
            items.append(IPv6(src="fd00::2", dst="fd00::1") / UDP(sport=53, dport=5353) / b"answer!")
            return items

        def tso():
            segment = IP(src="198.18.0.9", dst="198.18.1.9") / TCP(sport=41000, dport=80, flags="PA", seq=1, ack=1) / (b"y" * 3000)
            raw = bytearray(bytes(segment))
            raw[2:4] = b"\0\0"   # the length the NIC would fill in; the IP checksum is not recomputed, as the NIC would
            return bytes(raw)

        def stamped(frames, linktype, name):
            # Classic pcap, little-endian, microseconds, one second apart.
            with open(path(name), "wb") as f:
                f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, linktype))
                for index, frame in enumerate(frames):
                    data = bytes(frame)
                    f.write(struct.pack("<IIII", int(T0) + index, 250000 + index * 7, len(data), len(data)) + data)

        ips = datagrams()
        stamped([bytes(p) for p in ips] + [tso()], 101, "raw.pcap")
        stamped([Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p for p in ips]
                + [Ether(src="02:00:00:00:00:01", dst="ff:ff:ff:ff:ff:ff") / ARP(pdst="198.18.0.2")]
                + [Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / Dot1Q(vlan=7) / Dot1Q(vlan=8) / ips[0]]
                + [bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x0800)) + tso()], 1, "ethernet.pcap")
        # BSD loopback: the family in the capturing host's byte order (little-endian here, big-endian for the second file).
        stamped([struct.pack("<I", 2 if p.version == 4 else 24) + bytes(p) for p in ips], 0, "null-le.pcap")
        stamped([struct.pack(">I", 2 if p.version == 4 else 30) + bytes(p) for p in ips], 0, "null-be.pcap")
        stamped([(b"\xff\x03" if i % 2 == 0 else b"") + (b"\x00\x21" if p.version == 4 else b"\x00\x57") + bytes(p)
                 for i, p in enumerate(ips)], 9, "ppp.pcap")
        stamped([CookedLinux(pkttype=0, lladdrtype=1, proto=0x0800 if p.version == 4 else 0x86DD) / p for p in ips], 113, "sll.pcap")
        stamped([CookedLinuxV2(proto=0x0800 if p.version == 4 else 0x86DD, ifindex=3, pkttype=0, lladdrtype=1) / p for p in ips], 276, "sll2.pcap")

        def run(*args): subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wireshark's own pcapng (microsecond interfaces), a nanosecond one, and several interfaces of different link types.
        for name in ["raw", "ethernet", "null-le", "null-be", "ppp", "sll", "sll2"]:
            run("editcap", "-F", "pcapng", path(name + ".pcap"), path(name + ".pcapng"))
        run("editcap", "-F", "nsecpcap", path("ethernet.pcap"), path("ethernet-ns.pcap"))
        run("editcap", "-F", "pcapng", path("ethernet-ns.pcap"), path("ethernet-ns.pcapng"))
        run("mergecap", "-F", "pcapng", "-w", path("merged.pcapng"), path("ethernet.pcapng"), path("null-le.pcapng"), path("sll2.pcapng"))

        # By hand: what Wireshark's tools never write — a big-endian section, binary and decimal clocks,
        # obsolete and simple packet blocks, blocks to skip, a second section in the other byte order.
        def block(e, kind, body):
            body += b"\0" * (-len(body) % 4)
            return struct.pack(e + "II", kind, len(body) + 12) + body + struct.pack(e + "I", len(body) + 12)
        def option(e, code, value): return struct.pack(e + "HH", code, len(value)) + value + b"\0" * (-len(value) % 4)
        def shb(e): return block(e, 0x0A0D0D0A, struct.pack(e + "IHHq", 0x1A2B3C4D, 1, 0, -1))
        def idb(e, linktype, snaplen, *options):
            return block(e, 1, struct.pack(e + "HHI", linktype, 0, snaplen) + b"".join(options) + (option(e, 0, b"") if options else b""))
        def epb(e, interface, ticks, data):
            return block(e, 6, struct.pack(e + "IIIII", interface, ticks >> 32, ticks & 0xFFFFFFFF, len(data), len(data)) + data)
        def obsolete(e, interface, ticks, data):
            return block(e, 2, struct.pack(e + "HHIIII", interface, 0, ticks >> 32, ticks & 0xFFFFFFFF, len(data), len(data)) + data)
        def spb(e, data): return block(e, 3, struct.pack(e + "I", len(data)) + data)
        def ether(p): return bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p)
        seconds = int(T0)
        big = (shb(">") + idb(">", 101, 0, option(">", 9, b"\x09"))
               + idb(">", 1, 65535, option(">", 9, bytes([0x80 | 20])))
               + block(">", 4, struct.pack(">HH", 1, 8) + bytes([198, 18, 0, 1]) + b"a.b\0" + struct.pack(">HH", 0, 0))   # name resolution
               + epb(">", 0, seconds * 10**9 + 123456789, bytes(ips[0]))
               + epb(">", 1, (seconds + 1) * 2**20 + 2**19, ether(ips[1]))
               + block(">", 5, struct.pack(">III", 0, 0, 0))                          # interface statistics
               + obsolete(">", 0, (seconds + 2) * 10**9 + 5, bytes(ips[2]))
               + block(">", 10, struct.pack(">II", 0x544c534b, 4) + b"KEYS")          # decryption secrets
               + block(">", 0x00000BAD, struct.pack(">I", 32473) + b"mine")           # custom
               + spb(">", bytes(ips[3])))
        little = shb("<") + idb("<", 276, 262144, option("<", 9, b"\x03")) + epb("<", 0, (seconds + 4) * 1000 + 321,
            bytes(CookedLinuxV2(proto=0x86DD, ifindex=2, pkttype=0, lladdrtype=1) / ips[6]))
        open(path("handmade.pcapng"), "wb").write(big + little)

        # One that cannot be read: 802.11 frames under radiotap, with IP inside.
        from scapy.all import Dot11, LLC, RadioTap, SNAP
        wifi = [RadioTap() / Dot11(type=2, addr1="02:00:00:00:00:02", addr2="02:00:00:00:00:01", addr3="02:00:00:00:00:03")
                / LLC() / SNAP() / p for p in ips[:3]]
        stamped(wifi, 127, "wifi.pcap")
        run("editcap", "-F", "pcapng", path("wifi.pcap"), path("wifi.pcapng"))
        # A pcapng file cut in the middle of its last packet's block.
        whole = open(path("raw.pcapng"), "rb").read()
        open(path("cut.pcapng"), "wb").write(whole[:len(whole) - 60])
        """#
}
