/// What a link type is, in words a person recognises (the
/// tcpdump.org LINKTYPE registry), and the conversion that keeps the IP packets inside it.
package enum LinkTypeName {
    static let known: [UInt32: String] = [
        0: "BSD loopback", 1: "Ethernet", 9: "PPP", 12: "raw IP", 14: "raw IP", 101: "raw IP", 108: "OpenBSD loopback",
        113: "Linux cooked", 228: "raw IPv4", 229: "raw IPv6", 276: "Linux cooked v2",
        6: "IEEE 802.5 Token Ring", 10: "FDDI", 50: "PPP in HDLC framing", 104: "Cisco HDLC",
        105: "IEEE 802.11", 119: "IEEE 802.11 with a Prism header", 127: "IEEE 802.11 with radiotap",
        163: "IEEE 802.11 with an AVS header", 187: "Bluetooth HCI H4", 189: "Linux USB",
        192: "PPI", 195: "IEEE 802.15.4", 201: "Bluetooth HCI H4 with direction", 220: "Linux USB (memory-mapped)",
        249: "USBPcap", 252: "Wireshark upper-layer PDUs", 253: "Linux netlink",
    ]

    /// "IEEE 802.11 with radiotap (link type 127)", or "link type 147" for one without a name here.
    package static func describe(_ linkType: UInt32) -> String {
        guard let name = known[linkType] else { return "link type \(linkType)" }
        return "\(name) (link type \(linkType))"
    }

    /// The command that rewrites a capture as bare IP packets, where Wireshark finds them (its
    /// "IP" export keeps each packet's time): checked with tshark 4.0 on 802.11 radiotap frames.
    package static let conversion = "tshark -r IN -U IP -F pcap -w OUT.pcap"
}
