"""Sends MESSAGE to a UDP echo at HOST PORT, retrying, and prints the answer.

Usage: udp_ask.py HOST PORT MESSAGE
"""
import socket
import sys

host, port, message = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
s = socket.socket(socket.AF_INET6 if ':' in host else socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
for _ in range(10):
    s.sendto(message, (host, port))
    try:
        print(s.recvfrom(65535)[0].decode())
        break
    except socket.timeout:
        pass
