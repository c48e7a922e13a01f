/// The Python peers of the handshake captures that no packaged tool plays: a DNS server for a
/// small zone, and QUIC through aioquic (`pip install aioquic`; scripts/test installs it).
/// Parameters come in `sys.argv`, so the scripts are fixed text.
enum HandshakeLabScripts {
    /// argv: bind address, zone as JSON `{"name": [["A"|"AAAA"|"CNAME", "value"], …]}`. Answers
    /// A and AAAA questions (RFC 1035 §4.1), following the zone's CNAMEs into the answer section
    /// as a resolver's cache would; a name outside the zone gets NXDOMAIN.
    static let dnsServer = #"""
    import json, socket, struct, sys
    zone = json.loads(sys.argv[2])
    def encode(name):
        return b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0"
    def record(name, kind, ttl, data):
        return encode(name) + struct.pack(">HHIH", kind, 1, ttl, len(data)) + data
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((sys.argv[1], 53))
    while True:
        query, peer = s.recvfrom(512)
        end, labels = 12, []
        while query[end] != 0:
            labels.append(query[end + 1:end + 1 + query[end]].decode())
            end += query[end] + 1
        qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
        asked = ".".join(labels).lower()
        answers, name, hops = [], asked, 0
        while name in zone and hops < 8:
            hops += 1
            alias = [value for kind, value in zone[name] if kind == "CNAME"]
            if alias:
                answers.append(record(name, 5, 300, encode(alias[0])))
                name = alias[0]
                continue
            for kind, value in zone[name]:
                if kind == "A" and qtype == 1:
                    answers.append(record(name, 1, 60, socket.inet_pton(socket.AF_INET, value)))
                if kind == "AAAA" and qtype == 28:
                    answers.append(record(name, 28, 60, socket.inet_pton(socket.AF_INET6, value)))
            break
        flags = 0x8180 if asked in zone else 0x8183
        header = query[:2] + struct.pack(">HHHHH", flags, 1, len(answers), 0, 0)
        s.sendto(header + query[12:end + 5] + b"".join(answers), peer)
    """#

    /// argv: host, port, certificate chain (PEM, leaf first), key, and "retry" to answer every
    /// first Initial with a Retry. An HTTP/3-less QUIC server: it completes handshakes offering
    /// ALPN h3 and nothing more.
    static let quicServer = #"""
    import asyncio, sys
    from aioquic.asyncio import serve
    from aioquic.quic.configuration import QuicConfiguration
    configuration = QuicConfiguration(is_client=False, alpn_protocols=["h3"])
    configuration.load_cert_chain(sys.argv[3], sys.argv[4])
    async def main():
        await serve(sys.argv[1], int(sys.argv[2]), configuration=configuration, retry=sys.argv[5:] == ["retry"])
        await asyncio.Future()
    asyncio.run(main())
    """#

    /// argv: host, port, server name, QUIC version ("1" or "2"). Connects with that version only,
    /// SNI and ALPN h3, pings once, closes, and prints "connected VERSION".
    static let quicClient = #"""
    import asyncio, ssl, sys
    from aioquic.asyncio import connect
    from aioquic.quic.configuration import QuicConfiguration
    from aioquic.quic.packet import QuicProtocolVersion
    version = QuicProtocolVersion.VERSION_2 if sys.argv[4] == "2" else QuicProtocolVersion.VERSION_1
    configuration = QuicConfiguration(is_client=True, alpn_protocols=["h3"], server_name=sys.argv[3],
                                      verify_mode=ssl.CERT_NONE, original_version=version,
                                      supported_versions=[version])
    async def main():
        async with connect(sys.argv[1], int(sys.argv[2]), configuration=configuration) as client:
            await client.ping()
            print("connected", int(client._quic._version))
    asyncio.run(asyncio.wait_for(main(), 10))
    """#
}
