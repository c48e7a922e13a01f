/// What `--help` says. Only what the tool really does.
enum HelpText {
    static let overview = """
    tvlab — TunnelVision's developer tool: synthetic captures and benchmarks

    Usage:
      tvlab capture --packets N --out FILE [--seed S] [--snaplen BYTES] [--handshakes] [--force]
      tvlab bench packets [--packets N] [--tunnelvision PATH] [--json] [--keep]
      tvlab bench ring [--records N] [--slots N] [--json]
      tvlab bench live [--seconds S] [--rate R] [--json]   (R records/s; 0, the default, is flat out)
      tvlab bench store [--packets N] [--batch N] [--json]
      tvlab bench history [--flows N] [--packets M] [--json]
      tvlab bench history [--flows N] [--packets M] [--json]

    Fills a temporary history with N connections (default 1000000) and M packets (default
    20000000) over the past week through FlowStore.write, then times 7 runs each (min, median,
    max) of the timeline's first page (target 20 ms), a filtered page that chains 8 queries
    (100 ms), the whole-history activity axis and 3 zoom levels (50 ms each), and the inspector's
    packets of a flow with 10 000 (20 ms). Other services' timings join through HistoryBenchExtras.

    tvlab bench analyze [--packets N] [--tunnelvision PATH] [--json]
      tvlab bench tunnel [--mtu M[,M…]] [--seconds S] [--repeat K] [--paths LIST] [--json]
      tvlab bench inspect [--size-mib M] [--connections N] [--repeat K] [--json]   (see: tvlab help inspect)
      tvlab bench ui [--flows N] [--data-dir D] … (see: tvlab help ui)
      tvlab bench evidence [--flows N] [--packets M] [--json]   (see: tvlab help evidence)
      tvlab net echo-server --port P
      tvlab net rr | crr | hold --host H --port P … | garbage [--count N] [--seed S]
      tvlab faults [--short] [--connections N] [--mutations N] [--only NAMES] [--json]
      tvlab soak [--seconds S] [--json]
      tvlab ring produce --ring FILE --records N [--first I] [--slots N] [--wait-for-space] [--abandon]
      tvlab help [capture | bench | tunnel | inspect | ui | evidence | net | faults | ring]

    Exit status: 0 done, 1 failed, 2 the command line was wrong.
    """

    static let capture = """
    tvlab capture --packets N --out FILE [--seed S] [--snaplen BYTES] [--handshakes] [--force]

    Writes a classic pcap (LINKTYPE_RAW, microsecond stamps) of N synthetic datagrams — TCP and UDP
    over IPv4 and IPv6, ICMP and ICMPv6 echo, well-formed with correct checksums — through the same
    PcapWriter the tunnel uses. The same seed gives the same packets; stamps start at the time the
    command runs. Progress goes to standard error every 100 000 packets.

    --packets N        how many packets (at least 1)
    --out FILE         where to write it; an existing FILE is refused
    --seed S           the SyntheticTraffic seed (default 1)
    --snaplen BYTES    bytes kept of each packet, 1…262144 (default 262144: whole packets)
    --handshakes       named conversations instead: each a DNS lookup, then a TLS 1.2 connection to
                       the answer (ClientHello with SNI and ALPN, a certificate) with 12 records
                       each way and both FINs — 35 packets per conversation, 16 at a time with
                       their packets interleaved (HandshakeTraffic)
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

    tvlab bench analyze [--packets N] [--tunnelvision PATH] [--json]

    Writes N packets (default 210000) of 'tvlab capture --handshakes' traffic — DNS lookups, then
    TLS 1.2 conversations with SNI, ALPN and a certificate, 35 packets each — syncs it to disk so
    no writeback runs during the timings, then times
    'tunnelvision analyze FILE --json' three times with its default workers (one per processor,
    at most 4) and three times with '--workers 1' (output to /dev/null, best kept), and
    'tshark -r FILE -Y tls.handshake -T fields -e tls.handshake.extensions_server_name' once, and
    prints packets per second for each and the ratios to tshark, each run's CPU time (user and
    system), and how much faster the default workers ran than one — near 1× when the machine's
    other load held the other processors, which is what moves the first ratio most. Targets:
    analyze at least 25× tshark with its default workers, and at least 18× with one.
    """

    static let benchTunnel = """
    tvlab bench tunnel [--mtu M[,M…]] [--seconds S] [--repeat K] [--paths LIST] [--json]

    Needs root. Builds a lab (namespaces host 198.19.0.1 and server 198.19.0.2 joined by veth,
    a default route in host via the server, net.ipv4.tcp_tw_reuse=1 in host so the relays'
    sockets in TIME_WAIT do not use up its ports), starts 'iperf3 -s' and 'tvlab net
    echo-server' in server, and measures each path K times, the median shown, in K rounds that
    each take every path (at every MTU) once, on a route of its own, so the machine's drift over
    the bench falls on every path alike; a path that fails is measured no more. Each round:
      upload     iperf3 -c 198.19.0.2 -t S -i 0 -J: end.sum_received.bits_per_second (one stream)
      download   the same with -R
      rr         tvlab net rr: median of 20000 1-byte round trips on one connection
      conn/s     tvlab net crr for S seconds: connect, 1 byte each way, close
    The paths, all starting from host:
      direct        the client in host itself
      tunnel        tunnelvision run --capture-detail metadata --mtu M (the binary next to tvlab)
      routed        tunnelvision up --host --foreground in host (host plays the machine; capture-detail
                    metadata, as for tunnel, set in its data directory first), the
                    clients in host itself reaching the server at 198.19.9.9, beyond host's default
                    route (the server's veth address is on host's own subnet, which stays direct)
      passive       tunnelvision up --interface veth-host --foreground in host: the direct path, watched
      pasta         pasta --runas 0:0 --config-net --no-map-gw --mtu M
      slirp4netns   slirp4netns --configure --mtu=M on a namespace made by unshare, entered by nsenter
      haproxy       haproxy -db in host, TCP mode, one thread per processor, option splice-auto,
                    proxying host's 198.19.0.1 at the bench's two ports to the server's: a relay
                    that ends TCP with no TUN, what ending TCP costs on this machine, for scale
    Then, tunnel only: its resident memory (VmRSS, and the peak VmHWM, from /proc/PID/status)
    while 'tvlab net hold' keeps 1000 connections open through it; and K times, the sequential
    write rate of the disk under a fresh data directory (1 GiB of zeros, one fdatasync, removed)
    followed by a download through the tunnel capturing whole packets into that directory
    (--capture-detail full), reported as a ratio of the disk's rate. Routed and passive: the
    resident memory of the last round's service with 1000 connections open (target at most 60 MB),
    read once the connections of that round have left it and it has given back what they grew
    (\(Int(TunnelBenchClients.serviceSettleSeconds)) s after the 1000 are open: their closing linger, then its give-back), and for passive
    what the kernel dropped before the service read it, summed over its rounds' services, from
    'tunnelvision stats --json' (target at most 0.1 %); then what asking each connection's
    program costs: K pairs, each a fresh service's conn/s with the lookup and a fresh one's with
    'up --no-programs', the medians' ratio shown (target at least 95 %).
    Prints each path's figures and its ratio to direct (latency as microseconds added), and the
    targets for the tunnel: upload and download at least 80 % of direct, at most 15 µs added to
    the median round trip, connections/s at least 80 % of direct, resident memory at most 50 MB
    (decimal) with 1000 open flows, with haproxy's ratios beside them for scale. Progress goes
    to standard error. A relay or iperf3 that is not installed is reported and skipped; a
    measurement that fails is reported, the rest go on, and the exit status is 1. The lab and every program started are removed at the end,
    also on failure, Ctrl-C or SIGTERM (then the exit status is 128 + the signal).

    --mtu M[,M…]     MTUs inside the tunnel, pasta and slirp4netns, each 1280…65520, each relay
                     measured at every one, side by side (default 1500,65520: real links' MTU
                     and the largest a TUN takes); the tunnel's memory and full-capture figures
                     at the largest
    --seconds S      length of each iperf3 test and each connections run (default 4)
    --repeat K       runs per figure, the median shown (default 3)
    --paths LIST     comma-separated, in the order to run (default
                     direct,tunnel,routed,passive,pasta,slirp4netns,haproxy)
    --json           print the results as one JSON object instead of a table
    """

    static let net = """
    tvlab net echo-server --port P
    tvlab net rr --host H --port P [--count N] [--json]
    tvlab net crr --host H --port P [--seconds S] [--per-second N] [--json]
    tvlab net hold --host H --port P --count N --ready-file F [--verify]
    tvlab net garbage [--count N] [--seed S]

    Small tools for 'bench tunnel' and 'faults'; H is an IPv4 or IPv6 address.
      echo-server   listens on every IPv4 address at port P and sends back whatever it reads;
                    one thread, epoll, its open-file limit raised to the hard limit; runs until
                    killed
      rr            one connection (TCP_NODELAY), 1000 warm-up round trips of 1 byte, then N
                    timed ones (default 20000); prints the median and p99 in µs
      crr           for S seconds (default 4), one after another: connect, 1 byte each way,
                    close with a reset (so TIME_WAIT cannot exhaust the ports); prints connections/s;
                    --per-second N paces them at N a second (bench ui's short connections)
      hold          opens N connections, each proven by a 1-byte round trip, creates F, and closes
                    them all once F is removed (or after 120 s); with --verify, first makes one
                    more round trip on each and prints "verified K of N" (exit 1 unless all answer)
      mix           the soak's traffic (see 'tvlab help faults'): --host H --port ECHO --http-port P
                    --path /FILE --udp-port U --seconds S; prints one JSON tally at the end
      garbage       writes N (default 1000) random malformed datagrams, most with an IPv4 or IPv6
                    version nibble, into the first interface that is not loopback through a packet
                    socket (root); the same seed S (default 1) gives the same datagrams
    Each connect, send and receive gives up after 10 s (exit status 1, saying which).
    --json prints one JSON object.
    """

    static let faults = """
    tvlab faults [--short] [--connections N] [--mutations N] [--only NAMES] [--json]

    The fault suite (scripts/faults), as root, in a lab of its own: each fault injected into a real
    'tunnelvision run' (the binary beside tvlab) and checked against what is promised.
      connections   N concurrent connections (default 10000, --short 2000) through one tunnel,
                    each proven by a round trip, held past three ticks, then used again
      signals       timeout 2 ends 'run -- sleep' with 124; TERM and HUP to run end the command
                    with 128+N; 'bash -c "yes | head -1"' prints y and exits 0, quietly
      kill -9       the tunnel killed mid-download: curl gone within 2 s; the next run says it
                    recovered from an unclean stop, and nothing of the dead run is left
      device        the TUN device deleted under 'run -- sleep': run ends non-zero with a reason
      full disk     a 50 MB download, twice, through an 8 MiB tmpfs data directory (in a private
                    mount namespace): both complete intact, and the full disk is reported
      control       2000 clients flood the control socket with unterminated lines, 200 never
                    read: a download stays intact, round trips stay under 200 ms (p99), stats answers
      files         a history with damaged pages, a settings file with wrong types, symbolic links
                    at the history and the ring's lock: refused or reported, left untouched
      garbage       malformed datagrams into the tunnel (2000, or 20000), then a download intact
      captures      M captures (default 600, --short 60) mutated and read by analyze: none crashes
                    or hangs
    Prints connections held and working afterwards, faults injected and survived, bad inputs
    tried and crashes, bytes lost; exit status 1 unless all held, survived and arrived.
    --only NAMES runs only the scenarios named (comma-separated, as the progress lines name them; an
    unknown name is refused before anything runs), and judges only the figures they measure: a
    figure none of them measures is reported "not measured" and neither passes nor fails.
    --json prints the report as one JSON object.

    tvlab soak [--seconds S] [--json]

    One 'tunnelvision run' (capture detail metadata) carrying 'tvlab net mix' for S seconds
    (default 3600, at least 60): each second, a round trip on each of 100 long-lived connections,
    20 short connections (connect, 1 byte each way, close), a 1 MiB HTTP/1.0 download and a UDP
    exchange. The tunnel's resident memory is sampled every 10 s; prints memory at the start and
    the end (medians of the second and the last fifth of the samples; the first is warm-up) and
    the peak — flat when the end is within 10 % of the start — and what the traffic did and
    failed. Exit status 1 unless flat and the run succeeded.
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
        case "bench", "packets": bench + "\n" + benchIPC + "\n" + benchTunnel + "\n" + benchInspect
        case "tunnel": benchTunnel
        case "inspect": benchInspect
        case "ui": UIBench.help
        case "evidence": EvidenceBench.help
        case "net": net
        case "faults", "soak": faults
        case "ring": ring
        default: nil
        }
    }
}
