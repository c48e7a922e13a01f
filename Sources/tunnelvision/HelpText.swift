import Shared

/// What `--help` says. Only what the program really does.
enum HelpText {
    static let overview = """
    tunnelvision \(ProductVersion.current) — see everything a Linux machine, command or namespace says on the network

    Usage:
      tunnelvision packets FILE.pcap [--json]   list every record of a capture of raw IP packets
      tunnelvision version [--json]             print the version
      tunnelvision help [COMMAND]               this text, or a command's

    Run 'tunnelvision help packets' for the listing's format.
    """

    static let packets = """
    tunnelvision packets FILE.pcap [--json]

    Lists each record of a classic pcap capture whose link type is raw IP (LINKTYPE_RAW 101, or
    228/229), in either byte order and with micro- or nanosecond stamps — TunnelVision's own captures
    and those of tcpdump -w on a TUN device alike. pcapng files are not read: convert them with
    'editcap -F pcap IN OUT'.

    Each line shows the record number, its time (UTC), IP version, protocol, source > destination,
    TCP flags, sequence, acknowledgment, window and payload bytes, UDP payload bytes or ICMP type
    and code, the datagram's length on the wire and, when the capture cut it, how much was kept.
    A record whose bytes are not a valid datagram is listed with the reason ('malformed: …') and
    the listing goes on. A damaged file is listed up to the damage, which is then reported, and the
    exit status is 1.

    --json   one JSON document: {"file", "linkType", "snaplen", "records": [...], "summary"}; each
             record carries the same fields by name, or "error": {"kind", "message"}.
    """

    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: overview
        case "packets": packets
        case "version": "tunnelvision version [--json]\n\nPrints the program's version."
        default: nil
        }
    }
}
