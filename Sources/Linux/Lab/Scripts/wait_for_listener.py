"""Waits (5 s at most) until something accepts TCP connections at HOST PORT; exit 1 if nothing does.

Usage: wait_for_listener.py HOST PORT
"""
import socket
import sys
import time

host, port = sys.argv[1], int(sys.argv[2])
for _ in range(100):
    try:
        socket.create_connection((host, port), 1).close()
        break
    except OSError:
        time.sleep(0.05)
else:
    raise SystemExit(1)
