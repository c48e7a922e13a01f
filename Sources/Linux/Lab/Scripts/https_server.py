"""Serves DIRECTORY over HTTPS at BIND:PORT, presenting CHAIN (PEM: leaf, intermediate, root: all
of it is sent) with KEY, at TLS VERSION only ("1.2": the certificates cross in the clear; "1.3").

Usage: https_server.py BIND PORT CHAIN KEY VERSION DIRECTORY
"""
import functools
import http.server
import ssl
import sys

bind, port, chain, key, version, directory = sys.argv[1], int(sys.argv[2]), *sys.argv[3:7]
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(chain, key)
context.minimum_version = context.maximum_version = {
    '1.2': ssl.TLSVersion.TLSv1_2, '1.3': ssl.TLSVersion.TLSv1_3}[version]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
server = http.server.ThreadingHTTPServer((bind, port), handler)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
