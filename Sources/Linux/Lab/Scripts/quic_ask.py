"""Connects over QUIC (aioquic, version 1, ALPN "echo") to NAME:PORT — NAME looked up through the
resolver, and sent as the SNI of the Initial — verifying the server against CAFILE, sends MESSAGE
on one stream and prints the answer.

Usage: quic_ask.py NAME PORT CAFILE MESSAGE
"""
import asyncio
import sys

from aioquic.asyncio import connect
from aioquic.quic.configuration import QuicConfiguration

name, port, cafile, message = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


async def main():
    configuration = QuicConfiguration(is_client=True, alpn_protocols=['echo'], server_name=name)
    configuration.load_verify_locations(cafile)
    async with connect(name, port, configuration=configuration) as client:
        reader, writer = await client.create_stream()
        writer.write(message.encode())
        writer.write_eof()
        print((await reader.read()).decode())


asyncio.run(asyncio.wait_for(main(), 20))
