/// What `--help` says. Only what the tool really does.
enum HelpText {
    static let overview = """
    tvlab — TunnelVision's developer tool: synthetic captures and benchmarks

    Usage:
      tvlab capture --packets N --out FILE [--seed S] [--snaplen BYTES] [--force]
      tvlab bench packets [--packets N] [--tunnelvision PATH] [--json] [--keep]
      tvlab help [capture | bench]

    Exit status: 0 done, 1 failed, 2 the command line was wrong.
    """

    static let capture = """
    tvlab capture --packets N --out FILE [--seed S] [--snaplen BYTES] [--force]

    Writes a classic pcap (LINKTYPE_RAW, microsecond stamps) of N synthetic datagrams — TCP and UDP
    over IPv4 and IPv6, ICMP and ICMPv6 echo, well-formed with correct checksums — through the same
    PcapWriter the tunnel uses. The same seed gives the same packets; stamps start at the time the
    command runs. Progress goes to standard error every 100 000 packets.

    --packets N        how many packets (at least 1)
    --out FILE         where to write it; an existing FILE is refused
    --seed S           the SyntheticTraffic seed (default 1)
    --snaplen BYTES    bytes kept of each packet, 1…262144 (default 262144: whole packets)
    --force            replace FILE if it exists
    """

    static let bench = """
    tvlab bench packets [--packets N] [--tunnelvision PATH] [--json] [--keep]

    In one run:
      1. writes a capture of N synthetic packets (default 1000000, seed 1) into a temporary directory;
      2. times 'tunnelvision packets FILE' three times, output to /dev/null, and keeps the best;
      3. times 'tshark -r FILE -T fields -e ip.src -e ipv6.src -e ip.dst -e ipv6.dst
         -e tcp.srcport -e udp.srcport' once, output to /dev/null (scripts/bench installs tshark);
      4. loads every record into memory and times PacketParser.parse over them, pass after pass
         for at least a second, and counts heap allocations during one pass;
      5. prints packets per second for each, with the targets: tunnelvision at least 20× tshark,
         the bare parse at least 10 000 000 packets/s, 0 allocations per packet.
    Wall-clock times include starting each program. Progress goes to standard error. An unmet
    target is reported as 'NOT met' and does not change the exit status; a program that fails does.

    --packets N            packets in the capture (default 1000000)
    --tunnelvision PATH    the binary to time (default: 'tunnelvision' next to tvlab)
    --json                 print the results as one JSON object instead of a table
    --keep                 keep the temporary directory and its capture, and say where it is
    """

    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: overview
        case "capture": capture
        case "bench", "packets": bench
        default: nil
        }
    }
}
