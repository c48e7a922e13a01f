import Shared

/// What `packets` and `analyze` read (the `packets` help says it; `analyze`'s points there).
enum CaptureFormatsHelp {
    static let long = """
        Read: classic pcap in either byte order with micro- or nanosecond stamps; pcapng (what
        Wireshark and dumpcap write) with any number of sections, in either byte order, and of
        interfaces, each with its own link type, snaplen and clock (Enhanced, Simple and obsolete
        Packet Blocks; name resolution, statistics, secrets and custom blocks are skipped). Link
        types: raw IP (101, 228, 229, and 12/14 as BSDs wrote DLT_RAW), Ethernet (1, with 802.1Q
        and 802.1ad tags), Linux cooked (113, 276), BSD loopback (0, 108) and PPP (9). An IPv4
        length of 0 (a segment captured before TCP segmentation offload) is taken from the capture.
        Any other link type (802.11, USB, Bluetooth…) is refused with its name; where Wireshark
        finds IP inside, '\(LinkTypeName.conversion)' keeps those packets.
        """
}
