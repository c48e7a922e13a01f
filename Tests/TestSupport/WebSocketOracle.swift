import Foundation

/// Python's `websockets` (PyPI) as the outside WebSocket peer: its sans-I/O client and server
/// talking in memory — the HTTP/1.1 upgrade, then text, a fragmented text, binary, a ping and its
/// pong, and a close each way — with permessage-deflate agreed (`"deflate"`) or not (`"plain"`).
/// Prints the bytes each side sent in the order sent, and the frames each side's own reader got.
package enum WebSocketOracle {
    package static func conversation(_ mode: String) throws -> [String: Any] {
        try PythonOracle.json(script, [mode]) as? [String: Any] ?? [:]
    }

    static let script = """
        import json, sys
        from websockets.client import ClientProtocol
        from websockets.server import ServerProtocol
        from websockets.uri import parse_uri
        from websockets.http11 import Request
        from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, ServerPerMessageDeflateFactory
        deflate = sys.argv[1] == "deflate"
        client = ClientProtocol(parse_uri("ws://lab.example/chat"), extensions=[ClientPerMessageDeflateFactory()] if deflate else [])
        server = ServerProtocol(extensions=[ServerPerMessageDeflateFactory()] if deflate else [])
        chunks = []
        got = {"sent": [], "received": []}
        requests = []
        def pump():
            while True:
                c = [d for d in client.data_to_send() if d]
                s = [d for d in server.data_to_send() if d]
                if not c and not s:
                    return
                for d in c:
                    chunks.append(["sent", d.hex()]); server.receive_data(d)
                for d in s:
                    chunks.append(["received", d.hex()]); client.receive_data(d)
                for e in server.events_received():
                    if isinstance(e, Request): requests.append(e)
                    else: got["sent"].append([int(e.opcode), e.fin, e.data.hex()])
                for e in client.events_received():
                    if hasattr(e, "opcode"): got["received"].append([int(e.opcode), e.fin, e.data.hex()])
        client.send_request(client.connect()); pump()
        server.send_response(server.accept(requests[0])); pump()
        client.send_text(b"hello over a WebSocket"); pump()
        server.send_text(b"hello back " * 200); pump()
        client.send_text(b"part one, ", fin=False); client.send_continuation(b"part two", fin=True); pump()
        server.send_binary(bytes(range(256)) * 4); pump()
        server.send_text(b"hello back " * 200); pump()
        client.send_ping(b"are you there"); pump()
        client.send_close(1000, "done for now"); pump()
        print(json.dumps({"chunks": chunks, "frames": got}))
        """
}
