/// A small proxy for the proxy captures: no packaged tool plays all three protocols from one
/// script. Parameters come in `sys.argv`, so the script is fixed text.
enum ProxyLabScripts {
    /// argv: bind address, port, mode (`http` or `socks`), the address every target resolves to.
    /// `http` answers CONNECT (RFC 9110 §9.3.6) with 200 and its header section; `socks` speaks
    /// SOCKS5 without authentication (RFC 1928 §3–6) and SOCKS4/4a (CD 90). Then bytes are
    /// relayed both ways until either side closes.
    static let proxy = #"""
    import socket, sys, threading
    bind, port, mode, upstream = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    \#(LabPython.exactly)
    def until(c, end):
        data = b""
        while not data.endswith(end): data += exactly(c, 1)
        return data
    def pump(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data: break
                b.sendall(data)
        except OSError: pass
        for s in (a, b):
            try: s.shutdown(socket.SHUT_RDWR)
            except OSError: pass
    def handle(c):
        try:
            if mode == "http":
                line = until(c, b"\r\n\r\n").split(b"\r\n")[0].split(b" ")
                target_port = int(line[1].rsplit(b":", 1)[1])
                reply = b"HTTP/1.1 200 Connection established\r\n\r\n"
            else:
                version = exactly(c, 1)[0]
                if version == 5:
                    exactly(c, exactly(c, 1)[0])
                    c.sendall(b"\x05\x00")
                    _, _, _, kind = exactly(c, 4)
                    exactly(c, {1: 4, 4: 16}.get(kind) or exactly(c, 1)[0])
                    target_port = int.from_bytes(exactly(c, 2), "big")
                    reply = b"\x05\x00\x00\x01" + socket.inet_aton(upstream) + target_port.to_bytes(2, "big")
                else:
                    rest = exactly(c, 7)
                    target_port = int.from_bytes(rest[1:3], "big")
                    until(c, b"\0")
                    if rest[3:6] == b"\0\0\0" and rest[6] != 0: until(c, b"\0")
                    reply = b"\x00\x5a" + b"\0" * 6
            u = socket.create_connection((upstream, target_port))
            c.sendall(reply)
            threading.Thread(target=pump, args=(u, c), daemon=True).start()
            pump(c, u)
        except (OSError, EOFError, ValueError, IndexError):
            c.close()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((bind, port))
    s.listen(16)
    while True:
        c, _ = s.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()
    """#
}
