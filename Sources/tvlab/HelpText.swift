/// What `--help` says. Only what the tool really does.
enum HelpText {
    static let overview = """
    tvlab — TunnelVision's developer tool: synthetic captures and benchmarks

    Usage:
      tvlab capture --packets N --out FILE [--seed S] [--snaplen BYTES] [--force]
      tvlab bench packets [--packets N] [--tunnelvision PATH] [--json] [--keep]
      tvlab bench ring [--records N] [--slots N] [--json]
      tvlab bench store [--packets N] [--batch N] [--json]
      tvlab ring produce --ring FILE --records N [--first I] [--slots N] [--wait-for-space] [--abandon]
      tvlab help [capture | bench | ring]

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

    static let benchIPC = """
    tvlab bench ring [--records N] [--slots N] [--json]

    Starts a child 'tvlab ring produce' that pushes N records (default 100000000) into a fresh
    live-feed ring of N slots (default 65536, 4 MiB) in a temporary directory, waiting for space
    rather than dropping, while this process drains them in batches of 4096 as a reader would,
    checking every record's order and every 1024th record whole. Prints records per second, timed
    from the first record drained to the last, and the memory traffic that implies (64 B each).
    Target: at least 20 000 000 records/s.

    tvlab bench store [--packets N] [--batch N] [--json]

    Writes N packets (default 2000000) of synthetic metadata over 1 000 flows into a fresh
    FlowStore (SQLite, WAL) in a temporary directory, in batches of N (default 512), one
    transaction per batch with the batch's flows upserted in it. Prints packets written per
    second, timing only the writes. Target: at least 300 000 packets/s.
    """

    static let ring = """
    tvlab ring produce --ring FILE --records N [--first I] [--slots N] [--wait-for-space] [--abandon]

    The tunnel's half of the live feed in a process of its own, for tests and the ring benchmark:
    starts a new session's ring at FILE (refused while another producer feeds it), pushes N probe
    records whose fields all derive from their index (I, I+1, …; default I = 0), wakes the reader
    every 256 records, closes the ring, and prints one JSON line: generation, pushed, dropped,
    seconds.

    --slots N           ring size, a power of two (default 65536)
    --wait-for-space    wait for the reader instead of dropping when the ring is full
    --abandon           exit without closing, as a crashed tunnel would
    """

    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: overview
        case "capture": capture
        case "bench", "packets": bench + "\n" + benchIPC
        case "ring": ring
        default: nil
        }
    }
}
