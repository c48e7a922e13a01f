import Foundation

/// Python's `hpack` and `h2` (PyPI) as the outside encoders of HPACK and HTTP/2: what they write
/// and what their own decoders read from it, for the product's readers to be checked against
/// (each script run by `PythonOracle`).
package enum HTTP2Oracle {
    /// `hpack`'s static table, its Huffman code of every byte and of random strings, and header
    /// blocks its encoder wrote for random header lists (Huffman on and off, never-indexed fields,
    /// table size changes), each with the fields its own decoder read from it, from `seed`.
    package static let hpackScript = """
        import json, random, sys
        from hpack import Decoder, Encoder
        from hpack.huffman import HuffmanEncoder
        from hpack.huffman_constants import REQUEST_CODES, REQUEST_CODES_LENGTH
        from hpack.struct import NeverIndexedHeaderTuple
        from hpack.table import HeaderTable
        random.seed(int(sys.argv[1]))
        huffman = HuffmanEncoder(REQUEST_CODES, REQUEST_CODES_LENGTH)
        strings = [bytes([b]) for b in range(256)]
        strings += [bytes(random.randrange(256) for _ in range(random.randrange(1, 80))) for _ in range(200)]
        out = {"static": [[n.decode(), v.decode()] for n, v in HeaderTable.STATIC_TABLE],
               "huffman": [{"plain": s.hex(), "coded": huffman.encode(s).hex()} for s in strings]}
        names = ["content-type", "accept", "user-agent", "cookie", "x-request-id", "cache-control", "etag",
                 ":path", ":authority", "set-cookie", "authorization", "x-a", "x-b", "x-long-name-for-the-table"]
        printable = "".join(chr(c) for c in range(32, 127))
        encoder, decoder = Encoder(), Decoder()
        blocks = []
        for _ in range(300):
            if random.random() < 0.08:
                encoder.header_table_size = random.choice([0, 64, 256, 1024, 4096])
            fields = []
            for _ in range(random.randint(1, 14)):
                name = random.choice(names) if random.random() < 0.8 else "x-" + "".join(random.choice("abcdefgh") for _ in range(6))
                value = "".join(random.choice(printable) for _ in range(random.randrange(0, 90)))
                if random.random() < 0.15:
                    fields.append(NeverIndexedHeaderTuple(name, value))
                else:
                    fields.append((name, value))
            block = encoder.encode(fields, huffman=random.random() < 0.5)
            decoded = decoder.decode(block)
            assert [tuple(f) for f in decoded] == [tuple(f) for f in fields]
            blocks.append({"block": block.hex(),
                           "fields": [[n, v, isinstance(f, NeverIndexedHeaderTuple)] for f in decoded for n, v in [f]]})
        out["blocks"] = blocks
        print(json.dumps(out))
        """

    /// A client and a server of `h2` talking in memory: a GET answered in padded DATA frames, a
    /// POST with a JSON body and trailers answered by 103 then 201 with trailers, a push, a
    /// request with a header larger than a frame (CONTINUATION), a stream the client cancels,
    /// then the server's GOAWAY. Prints both sides' bytes and what each side's own `h2` read.
    package static let conversationScript = """
        import json
        import h2.config, h2.connection, h2.events
        client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        server = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        sent, received = bytearray(), bytearray()
        streams = {}
        def stream(sid):
            return streams.setdefault(sid, {"id": sid, "request": None, "requestBody": "", "requestTrailers": [],
                                            "interim": [], "response": None, "responseBody": "", "responseTrailers": [],
                                            "promisedBy": None, "resetByClient": None, "responseEnded": False})
        def pump():
            while True:
                c, s = client.data_to_send(), server.data_to_send()
                if not c and not s:
                    return
                sent.extend(c); received.extend(s)
                for event in server.receive_data(c) if c else []:
                    if isinstance(event, h2.events.RequestReceived):
                        stream(event.stream_id)["request"] = [list(h) for h in event.headers]
                    elif isinstance(event, h2.events.DataReceived):
                        stream(event.stream_id)["requestBody"] += event.data.hex()
                        server.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.TrailersReceived):
                        stream(event.stream_id)["requestTrailers"] = [list(h) for h in event.headers]
                    elif isinstance(event, h2.events.StreamReset):
                        stream(event.stream_id)["resetByClient"] = int(event.error_code)
                for event in client.receive_data(s) if s else []:
                    if isinstance(event, h2.events.ResponseReceived):
                        stream(event.stream_id)["response"] = [list(h) for h in event.headers]
                    elif isinstance(event, h2.events.InformationalResponseReceived):
                        stream(event.stream_id)["interim"].append([list(h) for h in event.headers])
                    elif isinstance(event, h2.events.DataReceived):
                        stream(event.stream_id)["responseBody"] += event.data.hex()
                        client.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.TrailersReceived):
                        stream(event.stream_id)["responseTrailers"] = [list(h) for h in event.headers]
                    elif isinstance(event, h2.events.PushedStreamReceived):
                        pushed = stream(event.pushed_stream_id)
                        pushed["request"] = [list(h) for h in event.headers]
                        pushed["promisedBy"] = event.parent_stream_id
                    elif isinstance(event, h2.events.StreamEnded):
                        stream(event.stream_id)["responseEnded"] = True
        client.initiate_connection(); server.initiate_connection(); pump()
        base = [(":scheme", "https"), (":authority", "lab.example")]
        client.send_headers(1, [(":method", "GET"), (":path", "/index.html")] + base + [("user-agent", "oracle/1"), ("accept", "*/*")], end_stream=True)
        pump()
        server.send_headers(1, [(":status", "200"), ("content-type", "text/html"), ("server", "h2-oracle")])
        server.send_data(1, b"<html><body>", pad_length=7)
        server.send_data(1, b"hello over HTTP/2")
        server.send_data(1, b"</body></html>", end_stream=True, pad_length=0)
        pump()
        client.send_headers(3, [(":method", "POST"), (":path", "/api/items?x=1")] + base + [("content-type", "application/json")])
        client.send_data(3, b'{"name": "first",')
        client.send_data(3, b' "size": 2}')
        client.send_headers(3, [("x-checksum", "c0ffee")], end_stream=True)
        pump()
        server.send_headers(3, [(":status", "103"), ("link", "</style.css>; rel=preload")])
        server.send_headers(3, [(":status", "201"), ("content-type", "application/json"), ("location", "/api/items/7")])
        server.send_data(3, b'{"id":7,"name":"first"}')
        server.send_headers(3, [("grpc-status", "0"), ("x-total", "1")], end_stream=True)
        pump()
        client.send_headers(5, [(":method", "GET"), (":path", "/page")] + base, end_stream=True)
        pump()
        server.push_stream(5, 2, [(":method", "GET"), (":path", "/style.css")] + base)
        server.send_headers(2, [(":status", "200"), ("content-type", "text/css")])
        server.send_data(2, b"body { color: teal }", end_stream=True)
        server.send_headers(5, [(":status", "200"), ("content-type", "text/plain")])
        server.send_data(5, b"the page", end_stream=True)
        pump()
        client.send_headers(7, [(":method", "GET"), (":path", "/big-header")] + base + [("x-large", "v" * 20000)], end_stream=True)
        pump()
        server.send_headers(7, [(":status", "200")])
        server.send_data(7, b"partial")
        pump()
        client.reset_stream(7, error_code=8)
        pump()
        server.close_connection(error_code=0, additional_data=b"done", last_stream_id=7)
        pump()
        print(json.dumps({"client": sent.hex(), "server": received.hex(),
                          "streams": [streams[k] for k in sorted(streams)]}))
        """
}
