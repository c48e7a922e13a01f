"""Sends every datagram back upper-cased.

Usage: udp_echo.py BIND PORT
"""
import socket
import sys

bind, port = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET6 if ':' in bind else socket.AF_INET, socket.SOCK_DGRAM)
s.bind((bind, port))
while True:
    data, peer = s.recvfrom(65535)
    s.sendto(data.upper(), peer)
