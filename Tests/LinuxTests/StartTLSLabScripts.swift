/// The STARTTLS lab's servers: one small Python script speaks just enough of SMTP, IMAP, POP3,
/// FTP, XMPP, LDAP and PostgreSQL to reach the switch (or refuse it), then wraps the socket in
/// Python's `ssl` (OpenSSL) as the server's side of the handshake. Parameters come in `sys.argv`,
/// so the script is fixed text.
enum StartTLSLabScripts {
    /// argv: bind address, port, protocol (`smtp`, `imap`, `pop3`, `ftp`, `xmpp`, `ldap`,
    /// `postgres`), certificate chain file, key file, and `yes` or `no` — whether the server agrees
    /// to the switch. After a yes the TLS session is kept until the client closes (SMTP answers
    /// commands inside it, for swaks); after a no the connection is closed.
    static let server = #"""
    import socket, ssl, sys, threading
    bind, port, proto, chain, key, answer = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain, key)
    OID = b"1.3.6.1.4.1.1466.20037"
    \#(LabPython.exactly)
    def line(c):
        data = b""
        while not data.endswith(b"\n"):
            if len(data) > 4096: raise EOFError
            data += exactly(c, 1)
        return data.rstrip(b"\r\n").decode("latin-1")
    def until(c, marker):
        data = b""
        while marker not in data:
            if len(data) > 8192: raise EOFError
            data += exactly(c, 1)
        return data
    def element_end(c, name):
        until(c, b"<" + name)
        data = until(c, b">")
        if not data.endswith(b"/>"): until(c, b"</" + name + b">")
    def plaintext(c):
        # Speaks the protocol to its switch; True when TLS follows. A refusal closes the connection.
        yes = answer == "yes"
        if proto == "smtp":
            c.sendall(b"220 leaf.example.test ESMTP lab\r\n")
            while True:
                words = line(c).upper().split()
                verb = words[0] if words else ""
                if verb == "EHLO": c.sendall(b"250-leaf.example.test\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n")
                elif verb == "STARTTLS":
                    c.sendall(b"220 2.0.0 Ready to start TLS\r\n" if yes else b"454 4.7.0 TLS not available due to local problem\r\n")
                    return yes
                elif verb == "QUIT": c.sendall(b"221 2.0.0 Bye\r\n"); return False
                else: c.sendall(b"250 2.0.0 Ok\r\n")
        if proto == "imap":
            c.sendall(b"* OK [CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED] lab ready.\r\n")
            while True:
                words = line(c).split()
                tag, verb = (words + ["", ""])[0], (words + ["", ""])[1].upper()
                if verb == "CAPABILITY": c.sendall(b"* CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED\r\n" + tag.encode() + b" OK done.\r\n")
                elif verb == "STARTTLS":
                    c.sendall(tag.encode() + (b" OK Begin TLS negotiation now.\r\n" if yes else b" NO [UNAVAILABLE] not now.\r\n"))
                    return yes
                elif verb == "LOGOUT": c.sendall(b"* BYE\r\n" + tag.encode() + b" OK bye.\r\n"); return False
                else: c.sendall(tag.encode() + b" BAD unknown.\r\n")
        if proto == "pop3":
            c.sendall(b"+OK lab ready.\r\n")
            while True:
                verb = (line(c).upper().split() or [""])[0]
                if verb == "CAPA": c.sendall(b"+OK\r\nTOP\r\nUIDL\r\nSTLS\r\n.\r\n")
                elif verb == "STLS":
                    c.sendall(b"+OK Begin TLS negotiation now.\r\n" if yes else b"-ERR not now.\r\n")
                    return yes
                elif verb == "QUIT": c.sendall(b"+OK bye.\r\n"); return False
                else: c.sendall(b"-ERR unknown.\r\n")
        if proto == "ftp":
            c.sendall(b"220-Welcome to the lab.\r\n220 lab FTP ready.\r\n")
            while True:
                words = line(c).upper().split()
                verb = words[0] if words else ""
                if verb == "AUTH":
                    c.sendall(b"234 Proceed with negotiation.\r\n" if yes else b"534 Policy requires no TLS.\r\n")
                    return yes
                elif verb == "FEAT": c.sendall(b"211-Features:\r\n AUTH TLS\r\n211 End\r\n")
                elif verb == "QUIT": c.sendall(b"221 Goodbye.\r\n"); return False
                else: c.sendall(b"530 Please login with USER and PASS.\r\n")
        if proto == "xmpp":
            until(c, b"<stream:stream")
            until(c, b">")
            c.sendall(b"<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
                      b"id='lab1' from='leaf.example.test' version='1.0' xml:lang='en'><stream:features>"
                      b"<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls></stream:features>")
            element_end(c, b"starttls")
            if yes: c.sendall(b"<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"); return True
            c.sendall(b"<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:stream>"); return False
        if proto == "ldap":
            while True:
                if exactly(c, 1) != b"\x30": return False
                head = exactly(c, 1)[0]
                length = head if head < 0x80 else int.from_bytes(exactly(c, head & 0x7F), "big")
                body = exactly(c, length)
                idlen = body[1]
                msgid = body[2:2 + idlen]
                op = body[2 + idlen]
                if op == 0x77 and OID in body:
                    code = 0 if yes else 52
                    c.sendall(bytes([0x30, 0x0B + idlen, 0x02, idlen]) + msgid + bytes([0x78, 0x07, 0x0A, 0x01, code, 0x04, 0x00, 0x04, 0x00]))
                    return yes
                if op == 0x42: return False  # unbind
                c.sendall(bytes([0x30, 0x0B + idlen, 0x02, idlen]) + msgid + bytes([op + 1, 0x07, 0x0A, 0x01, 0x35, 0x04, 0x00, 0x04, 0x00]))
        if proto == "postgres":
            while True:
                request = exactly(c, 8)
                if request == b"\x00\x00\x00\x08\x04\xd2\x16\x30": c.sendall(b"N"); continue
                if request != b"\x00\x00\x00\x08\x04\xd2\x16\x2f": return False
                c.sendall(b"S" if yes else b"N")
                return yes
        return False
    def serve(c):
        try:
            if plaintext(c):
                tls = context.wrap_socket(c, server_side=True)
                if proto == "smtp":
                    # swaks goes on inside TLS: EHLO again, then QUIT.
                    reader = tls.makefile("rb")
                    for request in reader:
                        verb = (request.decode("latin-1").upper().split() or [""])[0]
                        tls.sendall(b"221 2.0.0 Bye\r\n" if verb == "QUIT" else b"250 2.0.0 Ok\r\n")
                        if verb == "QUIT": break
                else:
                    while tls.recv(65536): pass
                try: tls.unwrap()
                except (OSError, ssl.SSLError): pass
        except (OSError, EOFError, ssl.SSLError, IndexError):
            pass
        finally:
            try: c.close()
            except OSError: pass
    listener = socket.socket(socket.AF_INET6 if ":" in bind else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((bind, port))
    listener.listen(16)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
    """#
}
