"""Answers A questions: NAME=ADDRESS pairs for their names, ADDRESS for every other name; every
other question gets no answer.

RFC 1035 section 4.1: the question echoed, one answer by a compression pointer to it.
Usage: dns_responder.py BIND PORT ADDRESS [NAME=ADDRESS ...]
"""
import socket
import struct
import sys

bind, port, address = sys.argv[1], int(sys.argv[2]), sys.argv[3]
zone = dict(pair.lower().split('=', 1) for pair in sys.argv[4:])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((bind, port))
while True:
    q, peer = s.recvfrom(512)
    end, labels = 12, []
    while q[end] != 0:
        labels.append(q[end + 1:end + 1 + q[end]].decode('ascii', 'replace'))
        end += q[end] + 1
    question = q[12:end + 5]
    qtype = struct.unpack('>H', q[end + 1:end + 3])[0]
    answer = zone.get('.'.join(labels).lower(), address)
    answers = b'\xc0\x0c' + struct.pack('>HHIH', 1, 1, 60, 4) + socket.inet_aton(answer) if qtype == 1 else b''
    header = q[:2] + struct.pack('>HHHHH', 0x8180, 1, 1 if answers else 0, 0, 0)
    s.sendto(header + question + answers, peer)
