import Shared

/// What `--help` says. Only what the program really does.
enum HelpText {
    static let overview = """
    tunnelvision \(ProductVersion.current) — see everything a Linux machine, command or namespace says on the network

    Usage:
    Record:
      tunnelvision run [OPTIONS] [--] CMD ARGS  run CMD with every packet it sends and receives recorded
      tunnelvision up --host | --netns NAME | --pid PID | --interface IF [--inspect] [--ui] [--foreground] [--data-dir D]
                                                monitor the machine or a namespace (a container's), or watch an interface, as a service
      tunnelvision status [--data-dir D] [--json]
                                                whether a service runs, what it monitors, since when
      tunnelvision down [--data-dir D]          stop the service
      tunnelvision demo [--data-dir D] [--ui] [--json]
                                                the tunnel in a lab of namespaces, with real servers and clients
    The running tunnel:
      tunnelvision live [--data-dir D] [--json] a full-screen dashboard of what it carries, as it happens
      tunnelvision stats [--data-dir D] [--json] its counters (pipeline, relay, resolvers, shell)
      tunnelvision diagnostics [--data-dir D] [--json]
                                                what it can name and inspect, and why not
    The app in a browser:
      tunnelvision ui [--data-dir D] [--listen ADDR:PORT] [--no-open] [--json]
                                                serve the app to a browser on this machine
      tunnelvision ui link [--data-dir D] [--json]
                                                a new address (its key works once) for another browser
    The history (what was recorded):
      tunnelvision flows [--data-dir D] [--json] [--search QUERY] [--since T] …
                                                its connections, newest first, a page at a time
      tunnelvision activity [--data-dir D] [--json] [--from T --to T]
                                                packets over time, drawn as bars
      tunnelvision flow ID [--packet N | --pcap FILE] [--data-dir D] [--json]
                                                one connection: its facts, its packets, a packet's bytes
      tunnelvision export [-o FILE|-] [--force] [--summary] [--data-dir D] [--json]
                                                every connection as one JSON file (metadata only)
      tunnelvision captures [rm SEQ…|rotate]    the capture files, the one being recorded, the room left
      tunnelvision storage [apply|clear]        the disk it all takes; apply the limits now, or delete all
    Network evidence for an assessment:
      tunnelvision audit project|record|start|end|mark|findings|diff …
                                                projects, sessions, markers, findings, release diffs
    Any capture:
      tunnelvision packets FILE [--json]        list every record of a capture (pcap or pcapng)
      tunnelvision analyze FILE [--data-dir D] [--json] [--workers N]
                                                name each conversation of any capture and show its TLS
      tunnelvision settings [--json]            show the settings (and 'settings set KEY VALUE' to change one)
      tunnelvision ca create|show|export FILE|remove
                                                the local CA that TLS inspection signs with
      tunnelvision version [--json]             print the version
      tunnelvision help [COMMAND]               this text, or a command's

    Run 'tunnelvision help analyze' for what a capture's conversations show,
    'tunnelvision help packets' for the listing's format, 'tunnelvision help settings' for the settings.
    """

    static let analyze = """
    tunnelvision analyze FILE.pcap [--data-dir D] [--json] [--workers N]

    Reads a capture — ours, or any pcap or pcapng file of IP packets (which formats and link types
    are read: 'tunnelvision help packets') — through the tunnel's own pipeline, and prints each
    conversation:
      - its name and where the name came from: the connection's server_name (sni), a QUIC Initial's
        ClientHello (quic), the target a SOCKS4/4a/5 or HTTP CONNECT request named (proxy; the TLS
        inside the tunnel is read too), or the DNS answer the capture holds for its server's address
        (dns);
      - how the client's stream opened (a TLS handshake, an HTTP request, something else);
      - what the client offered (TLS versions, ALPN, Encrypted ClientHello) and what the server
        answered (version and cipher suite, or an alert);
      - the hellos' fingerprints: the ClientHello's JA4 (FoxIO's; "t…" over TCP, "q…" over QUIC)
        and JA3, the ServerHello's JA3S (Salesforce's; each its MD5 hash and the string hashed, as
        Wireshark prints them). JA4S and JA4X are not computed: their licence (FoxIO License 1.1)
        allows only non-commercial use;
      - the certificate chain where it travelled in the clear (TLS 1.2 and older): each certificate's
        subject, issuer and expiry; for TLS 1.3, that it was encrypted.
    TCP streams are put back in order for this; nothing is decrypted. The client of a conversation
    is the side that sent its first packet (for TCP, the SYN). Packets a capture cut at its snaplen
    are counted whole, but a handshake cut short cannot be read.

    --data-dir D   also write the conversations into D's history (created 0700 if missing), at
                   the capture's own times, with each packet's time, direction and length, so
                   the timeline's activity axis counts them (the bytes stay in FILE).
    --workers N    read with N workers at once, each counting its share of the conversations
                   (default: one per processor, at most 4; 1 reads the file in one pass). The
                   report is the same with any N, unless more than 65 536 conversations are open
                   at once: then the least recently active is ended early, and which one that is
                   depends on the shares.
    --json         one JSON object: {"file", "format" (pcap|pcapng), "linkType" (of the file, or of
                   its first pcapng interface), "packets", "nonIPFrames" (ARP…, or of an interface
                   whose link type is not read),
                   "unreadablePackets" (IP the parser refused), "damage",
                   "outOfOrderNotHeld" {"segments", "bytes"} (see below),
                   "conversations": [{"protocol", "client", "server", "packets", "bytesFromClient",
                   "bytesFromServer" (IP bytes), "name", "nameSource" (sni|quic|proxy|dns|dnsQuery|
                   null), "otherNames", "proxy" {"protocol", "host", "port"} | null, "sni", "dns",
                   "encryptedDNS" (all as 'tunnelvision help flows' says), "streamOpening",
                   "quicVersion", "clientOffer" {"versions"
                   (supported_versions list) | "upTo" (legacy_version), "alpn", "omittedALPN", "ech",
                   "text"}, "serverAnswer" {"version", "cipherSuite", "cipherSuiteName" (IANA, or
                   null when unknown), "helloRetryRequest"} | {"alert"}, "text"}, "fingerprints"
                   {"ja4", "ja3" (MD5), "ja3Full" (the JA3 string), "ja3s" (MD5), "ja3sFull"} (each
                   null when its hello was not read) | null, "certificates"
                   {"visibility", "complete", "text", "chain": [{"subject", "issuer", "notAfter",
                   "text"}]}}]}. Versions and suites are their decimal code points; each "text" is
                   the text report's words for the same fact.

    Out-of-order TCP data is held behind a gap only as far into the stream as the scanners read
    (about 96 KiB of the client's, 288 KiB of the server's) and at most 16 MiB per worker over all
    conversations; what is not held is counted and reported ("out-of-order data beyond what the
    scanners read"), and a handshake behind it is not read.

    Exit status 1 when the file cannot be read as a capture; a file damaged part-way is analyzed up
    to the damage, which is reported.
    """

    static let run = """
    tunnelvision run [--data-dir D] [--capture-detail metadata|full] [--no-capture] [--no-programs]
                     [--mtu BYTES] [--json-summary FILE] [--ui [--no-open]]
                     [--inspect [--upstream-ca FILE] [--keylog FILE]] [--] CMD ARGS…

    Runs CMD in a new network namespace whose only way out is the tunnel, for exactly CMD's life
    (needs root; through sudo, CMD runs as the invoking user). Every packet is counted into its
    connection in the history, published to the live feed, and — unless capture is off — written
    to rotating .pcap files. The namespace gets this machine's DNS resolvers (those it can reach;
    not loopback stubs, whose upstreams are used instead); when this machine's resolv.conf changes
    while CMD runs (a new network, a VPN), the new servers are given to CMD at once, and 'stats'
    counts each change (resolvers.networkChanges, networkChangesLearned). Options go before CMD;
    everything from CMD on (or after --) is CMD's.

    When CMD ends, a summary goes to standard error: its connections (protocol, remote address and
    port, bytes out and in, packets, duration), the capture files and the history database.
    Standard output stays CMD's. The summary says so when it is not the whole story: a history
    that cannot be read, or whose writes failed during the run (a full disk, a lock), and capture
    writes that failed — never "0 connections" or a short list shown as complete.
    The history line ends with the command that reads it again: through sudo, the history is
    root's (/var/lib/tunnelvision unless --data-dir), so it is 'sudo tunnelvision flows'.
    CMD starts with the signal mask and dispositions a shell gives it (every signal at its
    default but those run itself was started with ignored, as under nohup), in run's process
    group, so the terminal's Ctrl-C, Ctrl-\\ and Ctrl-Z reach it directly; HUP, INT, QUIT, TERM,
    USR1, USR2 and ALRM sent to run alone are passed on to CMD once, and run waits for CMD to
    end, then takes the tunnel down. CMD and everything it starts live in a PID namespace of
    their own: when run dies, even by kill -9, they are killed with it. A killed run's leftovers
    (its namespace, its /etc/netns folder, a stale control socket or ring file) are removed by
    the next run, which says so in one line. When the tunnel fails under CMD (its device
    deleted, the event loop failing), run says why, stops CMD (TERM, then KILL after 5 s) and
    exits 1. A full disk stops capture and history with one line on standard error; the tunnel
    keeps forwarding.

    The exit status is CMD's (128 + N when signal N ended it); 127 when CMD is not found, 126 when
    it cannot be executed; 1 when the tunnel could not be set up (not root, no /dev/net/tun,
    another tunnel on the same data directory, a damaged history, settings that cannot be read, a
    data directory others can write to) or failed under CMD, or when the --json-summary FILE
    cannot be written (its directory is checked before CMD starts; a write that fails at the end,
    a full disk say, is reported with CMD's own status in the message).

    --data-dir D                where the history, captures, ring and settings live
                                (default /var/lib/tunnelvision for root; or TUNNELVISION_DATA)
    --capture-detail metadata   keep 128 bytes of each packet (headers) instead of whole packets
    --capture-detail full       keep whole packets (the settings' default)
    --no-capture                write no .pcap files (history and live feed still recorded)
    --no-programs               do not ask which program made each connection (once per
                                connection opened; 'tvlab bench tunnel' measures the cost)
    --mtu BYTES                 the tunnel's MTU, 1280…65520 (default 65520, as pasta and
                                slirp4netns use; measured 3.5× the throughput of 1500, whose
                                real link's segmentation --mtu 1500 gives back)
    --json-summary FILE         also write the summary as one JSON object to FILE: a new file
                                of mode 0600, since it holds CMD's command line (an existing
                                FILE is replaced; a symbolic link is refused, unless it leads
                                to a terminal or a pipe, as /dev/stdout does; under sudo the
                                file is given to the invoking user)
                                ("historyComplete"/"historyProblem", "captureComplete"/
                                "captureProblem" say what is missing from it; "captureFiles"
                                are the files still there, "captureFilesGone" the run's files
                                retention deleted while it ran; "deviceQueueDrops" what the
                                kernel dropped before the tunnel read it, null when not known
                                ("deviceCountsProblem" says why); "bursts" lists where the text
                                shows a burst as one row: {"first" (an index into
                                "connections"), "count"}; each connection has its "tlsStatus",
                                "inspectionReason", "inspectionDetail" and "communityID" (as
                                'tunnelvision help flows' says); with --inspect,
                                "inspection": {"inspected", "notInspected", "notInspectable",
                                "inspectionFailed"}, each but the first a list of {"reason",
                                "count"})
    --ui                        also serve the web app on the data directory while the run
                                lasts, as 'tunnelvision ui' does (its address goes to standard
                                error; it stops when the run ends)
    --no-open                   with --ui, do not open a browser
    --inspect                   TLS inspection with the local CA ('tunnelvision ca create' makes
                                it; without one run refuses, exit status 2). CMD, and nothing
                                else on the machine, trusts it: a bundle of the system's roots
                                plus the local root is bind-mounted over every system bundle
                                file (and OpenSSL's /etc/ssl/certs gets the root's hash name)
                                inside CMD's own mount namespace, and SSL_CERT_FILE,
                                CURL_CA_BUNDLE, REQUESTS_CA_BUNDLE (the bundle) and
                                NODE_EXTRA_CA_CERTS (the root) are set for CMD. NSS readers
                                (Chromium) trust $HOME/.pki/nssdb instead: CMD sees there a
                                private copy of its user's database (or a new one) with the
                                root added by certutil (libnss3-tools; without it run says so
                                and goes on). Not reached: Firefox's own profile store and
                                programs with roots built in — a refusal from those is a trust
                                store the run did not reach, not necessarily pinning. The
                                host's trust stores and the user's database are never written;
                                the files live in a private directory removed when the run ends
                                (as are the empty .pki/nssdb folders made in a home that had
                                none, for the mount). Before CMD starts, a throwaway leaf
                                for a .invalid host is verified against that bundle with OpenSSL;
                                unless it is trusted, run refuses (exit status 1). Inspection
                                happens because --inspect was given, whatever the stored
                                tls-inspection setting says; setting it off while the run lasts
                                pauses inspection for new connections, on resumes it.
                                Any TCP stream opening with a ClientHello is inspected, on any
                                port, and never beyond what the client allows: the real server
                                is offered only the client's versions, suites, groups and
                                signature algorithms. A server that fails verification, refuses
                                the client's offer or asks for the app's certificate is not
                                inspected: the client meets it directly and judges it itself.
                                A client refusing the run's certificate before its handshake
                                ends is left alone, its host remembered for the run. Every
                                flow not inspected says why (flow ID, flows --json). TLS that
                                starts after a plaintext exchange (STARTTLS and its kin) is
                                never inspected: it passes through, its handshake read
    --upstream-ca FILE          with --inspect, trust the CA certificates in FILE (PEM) for the
                                real servers instead of the system's (for a lab)
    --keylog FILE               with --inspect, append the TLS keys of both legs of every
                                inspected flow to FILE (NSS key log format, for Wireshark and
                                tshark); never written through a symbolic link
    """

    static let demo = """
    tunnelvision demo [--data-dir D] [--json] [--ui [--no-open]]

    Shows the tunnel at work with nothing outside the machine (needs root, python3, curl, openssl
    and Python's aioquic). It builds a lab of three network namespaces — server, host and
    monitored — with addresses from 198.19.0.0/24, makes a demo certificate authority (root →
    intermediate → a leaf per name), starts real servers in the server namespace, each on its own
    address that the lab's DNS responder names (shop.demo.test: HTTPS at TLS 1.2, sending its chain
    of three in the clear; news.demo.test: HTTPS at TLS 1.3; video.demo.test: QUIC; files.demo.test:
    HTTP with a 20 MiB file; a UDP echo), puts the tunnel between monitored and host, and runs real
    clients in the monitored namespace: a lookup, the download, both HTTPS fetches (trusting the
    demo root), a QUIC exchange, 50 parallel requests and a UDP exchange. So the history shows
    connections named by SNI, by QUIC Initial and by DNS answer, the TLS offer, answer and chain,
    and the burst as one row. Progress goes to standard error; the summary of the connections (as
    'run' prints it; --json for one JSON object) to standard output. The lab is removed at the
    end, also after Ctrl-C. The history and the capture (whole packets unless the data
    directory's settings say otherwise) go to a temporary data directory removed afterwards,
    unless --data-dir keeps them: then read them with 'tunnelvision flows --data-dir D'.
    --ui leaves the web app open on the demo's history once the lab is gone (a browser is opened
    when a display is set and not --no-open; its address is printed on standard error either way)
    until Ctrl-C or TERM; without --data-dir its temporary data directory is removed then.
    Exit status: 0 when every client succeeded, 1 otherwise, 130 when interrupted.
    """

    static let packets = """
    tunnelvision packets FILE.pcap [--json]

    Lists each record of a capture, TunnelVision's own or another tool's.

    \(CaptureFormatsHelp.long)

    Each line shows the record number, its time (UTC), IP version, protocol, source > destination,
    TCP flags, sequence, acknowledgment, window and payload bytes, UDP payload bytes or ICMP type
    and code, the datagram's length on the wire and, when the capture cut it, how much was kept.
    A record whose bytes are not a valid datagram is listed with the reason ('malformed: …') and
    the listing goes on; a frame that holds no IP packet (ARP…) is listed as 'not IP'. A damaged file is listed up to the damage, which is then reported, and the
    exit status is 1.

    --json   one JSON document: {"file", "format" (pcap|pcapng), "linkType", "snaplen" (of the file,
             or of its first pcapng interface), "interfaces" (pcapng: [{"linkType", "snaplen"}]),
             "records": [...], "summary" {"records", "malformed", "truncated", "notIP"}}; each record
             carries the same fields by name, or "error": {"kind", "message"}, or "notIP": true.
    """

    static let settings = """
    tunnelvision settings [--data-dir DIR] [--json]
    tunnelvision settings set SETTING VALUE [--data-dir DIR] [--force] [--json]

    Shows, or changes one of, the settings a tunnel session starts with: settings.json in the data
    directory (--data-dir, else $TUNNELVISION_DATA, else /var/lib/tunnelvision for root and
    $XDG_DATA_HOME/tunnelvision, by default ~/.local/share/tunnelvision, for anyone else). A session
    reads them once, when it starts. A change replaces the file atomically and keeps the other
    settings.

      \(settingsTable)

    Other obvious spellings are accepted (true/false, yes/no, 7d, 1GB, none…); anything else is refused
    with the valid values, exit status 2. Showing prints one 'SETTING VALUE' line each, in the spellings
    above, and on standard error a note for each value this build does not honour.

    capture, capture-detail, tls-inspection and plaintext-persistence also reach a tunnel (a run or a
    service) running on the data directory at once, over its control channel: capture off stops
    capturing there and then and on resumes it; a new capture-detail closes the capture file and
    opens the next with its snap length; tls-inspection off stops inspecting new connections (or
    plaintext-persistence off keeping decrypted content) and on resumes it. What the tunnel made of it
    is said on standard error ("the running tunnel applied it at once", or why not — a session started
    with capture off has no capture file until its next start, a run started without --inspect
    decrypts nothing, and one started with keeping off keeps nothing until its next run). Only
    'run --inspect' ever decrypts.
    'tls-inspection on' needs a local CA that can sign now: with none ('tunnelvision ca create' makes
    one), one that cannot be read or one outside its validity, it is refused with the reason and
    the command that fixes it, exit status 2, and nothing is saved (--force does not change that);
    the web app's switch follows the same rule. Turning it off is always accepted.

    The retention limits are applied by the tunnel when a session starts and each time it begins a new
    capture file (every 64 MiB, and on 'tunnelvision captures rotate'), and at once by
    'tunnelvision storage apply'. A running tunnel keeps the limits it started with until its next
    session; 'storage apply' uses the ones stored now. The oldest captures go first and the file being
    recorded never does; the history loses the connections last seen before the age limit.
    retention-size is a ceiling the captures never pass: the file being recorded counts as the 64 MiB
    it grows to from the moment it opens, and room for each new file is made before it is created, so
    under a 256m limit the closed captures keep to 192 MiB beside the one being recorded.

    A settings file that cannot be read — not JSON, a value of the wrong type or unknown, a key this
    build does not know (a newer build's, a typo) — is reported on standard error with its path and
    the field at fault, the factory settings are shown, the exit status is 1 and the file is left
    exactly as it is; 'run' refuses to start over it (unless given --no-capture), since the factory
    settings capture in full what the file may have turned off. 'set' refuses to replace such a file
    unless --force is given: then the file is first set aside, whole, beside itself
    (settings.json.unreadable-DATE), and the factory settings plus the one change are written.

    --json   the settings as one JSON object, in the file's own format; with 'set', what was saved:
             {"setting", "value", "enforced", "note" (why not, or null), "setAside" (or null),
             "tunnel" (what a running tunnel made of it, or null)}.
    """

    /// Each setting: its values and factory default, what it decides, and what this build does not
    /// do of it — all from `SettingName`.
    static var settingsTable: String {
        let names = SettingName.allCases
        let nameWidth = (names.map(\.rawValue.count).max() ?? 0) + 2
        let values = names.map { $0.valueForms(separator: " | ") }
        let valueWidth = (values.map(\.count).max() ?? 0) + 3
        let indent = String(repeating: " ", count: nameWidth)
        var lines: [String] = []
        for (setting, listed) in zip(names, values) {
            lines.append(setting.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                         + listed.padding(toLength: valueWidth, withPad: " ", startingAt: 0)
                         + "default " + setting.value(in: .default))
            lines.append(indent + setting.summary)
            // Values that share a reason share a line: "1d, 1w, 30d: stored, not enforced — …".
            var groups: [(spellings: [String], support: SettingSupport)] = []
            for choice in setting.choices where choice.change.support != .enforced {
                if let last = groups.indices.last, groups[last].support == choice.change.support {
                    groups[last].spellings.append(choice.spelling)
                } else {
                    groups.append(([choice.spelling], choice.change.support))
                }
            }
            for (spellings, support) in groups {
                let verdict = switch support {
                case .enforced: ""
                case let .storedOnly(reason): "stored, not enforced — \(reason)"
                case let .refused(reason): "refused — \(reason)"
                }
                lines += wrapped(spellings.joined(separator: ", ") + ": " + verdict, width: 96 - nameWidth).map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n  ")
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    static func text(for topic: String?) -> String? {
        switch topic {
        case nil: overview
        case "packets": packets
        case "live": LiveCommand.help
        case "ui": UICommand.help
        case "run": run
        case "up": UpCommand.help
        case "down": ServiceCommands.downHelp
        case "status": ServiceCommands.statusHelp
        case "analyze": analyze
        case "demo": demo
        case "stats": """
            tunnelvision stats [--data-dir D] [--json]

            Asks the tunnel running on the data directory (over its control socket,
            DATA/control.sock) for its counters: what the pipeline recorded, what the relay
            forwarded, the resolvers announced to the monitored namespace, and what the TUN device
            and the relay's sockets refused (counts by errno, e.g. connectFailuresByErrno.ECONNREFUSED).
            shell.device.kernel is what the kernel counted on the TUN device, read from it as the stats
            are asked (ip -s link's numbers, in the monitored namespace): queueDrops, the datagrams
            the monitored programs sent that it dropped because the tunnel did not read them fast
            enough (its queue full: in no capture or history, never sent), and datagramsRead;
            kernelProblem says why they could not be read. 'run' prints the drops in its summary too.
            --json prints the control channel's own answer. Exit status 1 when no tunnel runs there.
            """
        case "settings": settings
        case "captures": CapturesCommand.help
        case "audit": AuditCommand.help
        case "storage": StorageCommand.help
        case "ca": CACommand.help
        case "flows": FlowsCommand.help
        case "activity": ActivityCommand.help
        case "export": ExportCommand.help
        case "diagnostics": DiagnosticsCommand.help
        case "flow": FlowCommand.help
        case "version": "tunnelvision version [--json]\n\nPrints the program's version."
        default: nil
        }
    }
}
