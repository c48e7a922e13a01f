"""COUNT new TLS connections, one after another, each: TCP connect, handshake, GET PATH over
HTTP/1.1 with Connection: close, read to the end, close. Prints one JSON object: the count, the
seconds they took and the connections per second. One process for all of them, so the figure is
the connections' cost, not a program's start.

Usage: tls_connections.py HOST ADDRESS PORT PATH COUNT [--cafile FILE] [--proxy HOST:PORT]
  HOST     the name sent in SNI and Host, and verified in the certificate
  ADDRESS  where to connect (the server, or with --proxy the proxy's target is HOST:PORT)
  --cafile the one root to trust (default: the system's trust store)
  --proxy  an HTTP proxy to tunnel through with CONNECT HOST:PORT (mitmproxy)
"""
import argparse
import json
import socket
import ssl
import sys
import time

parser = argparse.ArgumentParser(prog="tls_connections.py")
for name in ("host", "address"):
    parser.add_argument(name)
parser.add_argument("port", type=int)
parser.add_argument("path")
parser.add_argument("count", type=int)
parser.add_argument("--cafile")
parser.add_argument("--proxy")
given = parser.parse_args()
host, address, port, path, count = given.host, given.address, given.port, given.path, given.count
options = {"--cafile": given.cafile, "--proxy": given.proxy}

context = ssl.create_default_context(cafile=options.get("--cafile"))
context.set_alpn_protocols(["http/1.1"])
request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()


def open_stream():
    proxy = options.get("--proxy")
    if proxy is None:
        return socket.create_connection((address, port), timeout=30)
    proxy_host, proxy_port = proxy.rsplit(":", 1)
    stream = socket.create_connection((proxy_host, int(proxy_port)), timeout=30)
    stream.sendall(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = stream.recv(4096)
        if not chunk:
            sys.exit(f"tls_connections.py: the proxy closed the connection during CONNECT: {answer!r}")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 200") and not answer.startswith(b"HTTP/1.0 200"):
        sys.exit(f"tls_connections.py: the proxy refused CONNECT: {answer.splitlines()[0]!r}")
    return stream


started = time.monotonic()
received = 0
for index in range(count):
    with context.wrap_socket(open_stream(), server_hostname=host) as tls:
        tls.sendall(request)
        response = b""
        while True:
            chunk = tls.recv(65536)
            if not chunk:
                break
            response += chunk
    if not response.startswith(b"HTTP/1.1 200"):
        sys.exit(f"tls_connections.py: connection {index + 1} answered {response[:80]!r}")
    received += len(response)
seconds = time.monotonic() - started
print(json.dumps({"connections": count, "seconds": seconds, "perSecond": count / seconds, "bytes": received}))
