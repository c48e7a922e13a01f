/// The Python programs behind the offline-memory tests: two capture writers (classic pcap,
/// LINKTYPE_RAW, checksums right, so tshark reads them as any capture) and a runner that reports a
/// child's peak resident memory. Parameters come in `sys.argv`, so the scripts are fixed text.
enum AnalyzeMemoryScripts {
    /// argv: path, megabytes. One TLS connection 198.18.0.1:40000 → 198.18.0.2:443 whose
    /// 88-byte ClientHello (SNI gap.example, ALPN h2) is lost: the client's next `megabytes` MiB
    /// follow it in 1 448-byte segments, all of them ahead of the gap, before the hello is sent
    /// again; then a TLS 1.3 ServerHello (suite 0x1301) and both FINs.
    static let gapCapture = #"""
    import struct, sys
    # argv: out path, megabytes of out-of-order client data behind the lost ClientHello
    out, megabytes = sys.argv[1], int(sys.argv[2])
    def csum(b):
        if len(b) % 2: b += b"\0"
        s = sum(struct.unpack("!%dH" % (len(b) // 2), b)); s = (s >> 16) + (s & 0xffff); s += s >> 16
        return ~s & 0xffff
    def tcp(src, sp, dst, dp, seq, ack, flags, payload=b""):
        h = struct.pack("!HHIIBBHHH", sp, dp, seq, ack, 5 << 4, flags, 65535, 0, 0)
        c = csum(bytes(src) + bytes(dst) + struct.pack("!BBH", 0, 6, 20 + len(payload)) + h + payload)
        segment = h[:16] + struct.pack("!H", c) + h[18:] + payload
        i = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(segment), 0, 0x4000, 64, 6, 0, bytes(src), bytes(dst))
        return i[:10] + struct.pack("!H", csum(i)) + i[12:] + segment
    def vec(n, b): return len(b).to_bytes(n, "big") + b
    def ext(kind, b): return struct.pack("!H", kind) + vec(2, b)
    def record(kind, body): return b"\x16\x03\x01" + vec(2, bytes([kind]) + vec(3, body))
    name = b"gap.example"
    client_hello = record(1, b"\x03\x03" + bytes(32) + vec(1, b"") + vec(2, b"\x13\x01") + vec(1, b"\x00") + vec(2,
        ext(0, vec(2, b"\x00" + vec(2, name))) + ext(16, vec(2, vec(1, b"h2"))) + ext(43, vec(1, b"\x03\x04"))))
    server_hello = record(2, b"\x03\x03" + bytes(32) + vec(1, b"") + b"\x13\x01\x00" + vec(2, ext(43, b"\x03\x04")))
    f = open(out, "wb")
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101))
    clock = [1_800_000_000 * 1_000_000]
    def rec(packet):
        clock[0] += 100
        f.write(struct.pack("<IIII", clock[0] // 1_000_000, clock[0] % 1_000_000, len(packet), len(packet)) + packet)
    C, S, SYN, ACK, PSH, FIN = [198, 18, 0, 1], [198, 18, 0, 2], 2, 16, 8, 1
    rec(tcp(C, 40000, S, 443, 1000, 0, SYN))
    rec(tcp(S, 443, C, 40000, 5000, 1001, SYN | ACK))
    rec(tcp(C, 40000, S, 443, 1001, 5001, ACK))
    segment, data = 1448, bytes(range(256)) * 6
    first, total = 1001 + len(client_hello), megabytes << 20
    for offset in range(0, total, segment):
        rec(tcp(C, 40000, S, 443, first + offset, 5001, ACK | PSH, data[:min(segment, total - offset)]))
    rec(tcp(C, 40000, S, 443, 1001, 5001, ACK | PSH, client_hello))    # the lost ClientHello, retransmitted
    end = first + total
    rec(tcp(S, 443, C, 40000, 5001, end, ACK | PSH, server_hello))
    rec(tcp(C, 40000, S, 443, end, 5001 + len(server_hello), ACK | FIN))
    rec(tcp(S, 443, C, 40000, 5001 + len(server_hello), end + 1, ACK | FIN))
    rec(tcp(C, 40000, S, 443, end + 1, 5002 + len(server_hello), ACK))
    f.close()
    """#

    /// argv: path, flows. Each flow one TCP SYN of 40 bytes from its own source endpoint to
    /// 198.19.0.1:443.
    static let synFlows = #"""
    import struct, sys
    # argv: out path, flows. Each flow is one TCP SYN from its own source endpoint.
    out, flows = sys.argv[1], int(sys.argv[2])
    def csum(b):
        s = sum(struct.unpack("!%dH" % (len(b) // 2), b)); s = (s >> 16) + (s & 0xffff); s += s >> 16
        return ~s & 0xffff
    server = bytes([198, 19, 0, 1])
    parts = [struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101)]
    for i in range(flows):
        source = bytes([198, 18 | ((i >> 16) & 1), (i >> 8) & 255, i & 255])
        port = 10000 + (i >> 17)
        h = struct.pack("!HHIIBBHHH", port, 443, i, 0, 5 << 4, 2, 65535, 0, 0)
        c = csum(source + server + b"\0\x06\0\x14" + h)
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 0, 0x4000, 64, 6, 0, source, server)
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        stamp = 1_800_000_000_000_000 + i * 10
        parts.append(struct.pack("<IIII", stamp // 1_000_000, stamp % 1_000_000, 40, 40) + ip + h[:16] + struct.pack("!H", c) + h[18:])
    open(out, "wb").write(b"".join(parts))
    """#

    /// argv: file for the child's standard output, the child's command line. Prints the child's
    /// exit status and its peak resident memory in bytes (`ru_maxrss`: VmHWM at its end).
    static let peakMemory = #"""
    import os, subprocess, sys
    with open(sys.argv[1], "wb") as out:
        child = subprocess.Popen(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
        err = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
    sys.stderr.buffer.write(err)
    print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024)
    """#
}
