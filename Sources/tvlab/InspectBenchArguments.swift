extension Arguments {
    static func parseBenchInspect(_ arguments: [String]) throws(UsageError) -> Command {
        let options = try OptionList(arguments, command: "bench inspect", valued: ["--size-mib", "--connections", "--repeat"],
                                     flags: ["--json"])
        var bench = InspectBenchOptions()
        bench.largeMiB = try options.integer("--size-mib", in: 1...16_384) ?? bench.largeMiB
        bench.connections = try options.integer("--connections", in: 1...100_000) ?? bench.connections
        bench.repeats = try options.integer("--repeat", in: 1...100) ?? bench.repeats
        bench.json = options.has("--json")
        return .benchInspect(bench)
    }
}

extension HelpText {
    static let benchInspect = """
    tvlab bench inspect [--size-mib M] [--connections N] [--repeat K] [--json]

    Needs root. Builds a lab (namespaces host 198.19.0.1 and server 198.19.0.2 joined by veth,
    net.ipv4.tcp_tw_reuse=1 in host), runs nginx in server as secure.test on 198.19.0.2:443 with
    a leaf from the lab's own PKI, serving an M MiB file of random bytes (default 256) and a tiny
    one; makes the person's CA with 'tunnelvision ca create' in a fresh data directory, and
    starts mitmdump (if installed) on host's 127.0.0.1:8080 with a private confdir, trusting the
    lab's root upstream and streaming bodies over 1 MiB. Then, K times each (default 3), the runs
    alternating between the paths, the median shown with min and max:
      download   curl --http1.1 -o /dev/null -w %{speed_download}: one fresh connection, M MiB
      conn/s     N (default 200) sequential fresh TLS connections from one Python process
                 (tls_connections.py: connect, handshake, GET /tiny.txt, Connection: close)
    The paths, all starting from host:
      tunnelvision run --inspect   --upstream-ca <lab root>; the clients trust what run gives
                                   the command (the system's roots and the person's CA); its
                                   stats --json read after each connection run for leavesMinted
      tunnelvision run             no inspection; the clients trust the system's roots and the
                                   lab's root
      mitmdump                     the clients' HTTPS proxy (CONNECT), trusting the system's
                                   roots and its CA
    Every client's CA file holds the system's roots and one more, as run gives: curl reads the
    whole file on each start (~30 ms for 140 roots), so no path is spared that cost.
    Prints the figures, the ratios, and the targets of issues 15 and 23: inspected download at
    least 0.7× passthrough's (issue 23; issue 15 asked 0.5×) and 5× mitmproxy's, inspected
    connections/s at least 3× mitmproxy's, one leaf minted per run for its one host. The
    binaries are the ones next to tvlab.
    """
}
