"""A QUIC server (aioquic, version 1, ALPN "echo") at BIND:PORT presenting CHAIN with KEY: each
stream's bytes come back upper-cased.

Usage: quic_echo_server.py BIND PORT CHAIN KEY
"""
import asyncio
import sys

from aioquic.asyncio import QuicConnectionProtocol, serve
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import StreamDataReceived

bind, port, chain, key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


class Echo(QuicConnectionProtocol):
    def quic_event_received(self, event):
        if isinstance(event, StreamDataReceived):
            self._quic.send_stream_data(event.stream_id, event.data.upper(), end_stream=event.end_stream)
            self.transmit()


async def main():
    configuration = QuicConfiguration(is_client=False, alpn_protocols=['echo'])
    configuration.load_cert_chain(chain, key)
    await serve(bind, port, configuration=configuration, create_protocol=Echo)
    await asyncio.Future()


asyncio.run(main())
