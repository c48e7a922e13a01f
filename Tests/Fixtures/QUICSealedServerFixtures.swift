import Foundation

/// Server Initials protected by aioquic 1.7.2 (pip), not by our code: its `CryptoPair` with the
/// server's side of keys derived from `QUICSealedFixtures.connectionID` seals each header and
/// payload below. Produced by this script, run with python3 (aioquic 1.7.2), output pasted:
///
/// ```python
/// # Seals QUIC server Initials with aioquic 1.7.2's own packet protection (CryptoPair, server
/// # side), for TunnelVision's tests. Output: Swift hex literals.
/// from aioquic.quic.crypto import CryptoPair
/// from aioquic.quic.packet import QuicProtocolVersion
///
/// V1, V2 = QuicProtocolVersion.VERSION_1, QuicProtocolVersion.VERSION_2
///
/// def varint2(n):
///     assert n < 0x4000
///     return bytes([0x40 | (n >> 8), n & 0xFF])
///
/// def varint(n):
///     if n < 0x40: return bytes([n])
///     return varint2(n)
///
/// def crypto(offset, data):
///     return b"\x06" + varint(offset) + varint(len(data)) + data
///
/// def seal(version, key_cid, dcid, scid, pn, payload):
///     initial_type = 0 if version == V1 else 1
///     first = 0xC0 | (initial_type << 4) | 0   # 1-byte packet number
///     header = (bytes([first]) + version.to_bytes(4, "big") + bytes([len(dcid)]) + dcid
///               + bytes([len(scid)]) + scid + b"\x00" + varint2(1 + len(payload) + 16) + bytes([pn]))
///     pair = CryptoPair()
///     pair.setup_initial(cid=key_cid, is_client=False, version=version)
///     return pair.send.encrypt_packet(header, payload, pn)
///
/// def emit(name, data):
///     print(f"    static let {name} = hex(\"\"\"")
///     h = data.hex()
///     for i in range(0, len(h), 64):
///         print("        " + h[i:i + 64])
///     print("        \"\"\")")
///
/// CID = bytes.fromhex("5a5b5c5d5e5f6061")          # the client's first DCID (QUICSealedFixtures)
/// CLIENT_SCID = b""                                 # the server's Initials go to the client's SCID
/// SERVER_SCID = bytes.fromhex("f067a5502a4262b5")
/// # RFC 9001 §A.3's ServerHello (TLS 1.3, TLS_AES_128_GCM_SHA256), the CRYPTO data of its Initial.
/// HELLO = bytes.fromhex(
///     "020000560303eefce7f7b37ba1d1632e96677825ddf73988cfc79825df566dc5430b9a045a1200130100002e00"
///     "330024001d00209d3c940d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00020304")
/// assert len(HELLO) == 0x5a
/// ACK0 = bytes.fromhex("0200000000")
/// # CONNECTION_CLOSE (0x1c): error code, frame type, reason length, reason.
/// def close(code, reason=b""):
///     return b"\x1c" + varint(code) + b"\x06" + varint(len(reason)) + reason
///
/// emit("refusedWithAlert120", seal(V1, CID, CLIENT_SCID, SERVER_SCID, 0, ACK0 + close(0x0178, b"no ALPN") + bytes(20)))
/// emit("closedWithProtocolViolation", seal(V1, CID, CLIENT_SCID, SERVER_SCID, 0, ACK0 + close(0x0a) + bytes(20)))
/// emit("helloThenClose", seal(V2, CID, CLIENT_SCID, SERVER_SCID, 0, ACK0 + crypto(0, HELLO) + close(0x0178)))
/// # The ServerHello in two Initials, second half first; a Handshake packet (v1 type 10, not
/// # opened by anyone: its bytes are arbitrary) coalesced after the first.
/// first = seal(V1, CID, CLIENT_SCID, SERVER_SCID, 0, ACK0 + crypto(40, HELLO[40:]))
/// handshake = bytes([0xE0]) + (1).to_bytes(4, "big") + b"\x00" + bytes([8]) + SERVER_SCID + varint2(40) + bytes(range(40))
/// emit("secondHalfAndHandshake", first + handshake)
/// emit("firstHalf", seal(V1, CID, CLIENT_SCID, SERVER_SCID, 1, crypto(0, HELLO[:40]) + bytes(4)))
/// ```
package enum QUICSealedServerFixtures {
    package static let refusedWithAlert120 = hex("""
        c2000000010008f067a5502a4262b5004036336de0289cbc905f8e02b1d698c0
        4924caf8b859fa113742d0a01c533dc20608346c58c7fda50f389588182b7119
        f69553cd8a012ae5
        """)
    package static let closedWithProtocolViolation = hex("""
        c8000000010008f067a5502a4262b500402e8e6de0289cbc9014f004b6b8f7e0
        08689ab6b859fa113742d0a01c533dc2a0a60edc0479502f3a505c605b036b9b
        """)
    package static let helloThenClose = hex("""
        d16b3343cf0008f067a5502a4262b500407953c8446b96e73da203ded573c648
        56712327559566b0ee5adb31dbba721a72a3f671df832d1351f80b94b79b45fb
        32e23f93723f19acb848470cd4afc51794578b06a7e6fa54c0ef5afe5b622edd
        713f0b928c4aab5ea48c05a35f18f6f36a4737a0ea1a4a1417ef961321d49bd1
        665534df8029de0d51a9fc
        """)
    package static let secondHalfAndHandshake = hex("""
        c4000000010008f067a5502a4262b500404b776de0289cbc8a36c405b6b8d9e0
        3b68beb6a559da8c0bd6dd297558b9128c68ad504c8937cda94a39f0e50f809e
        5e7404588eb35082ec87b709d96dc67f6f57d513fccdb6549cc4f3d9f1e00000
        00010008f067a5502a4262b54028000102030405060708090a0b0c0d0e0f1011
        12131415161718191a1b1c1d1e1f2021222324252627
        """)
    package static let firstHalf = hex("""
        ce000000010008f067a5502a4262b50040405f00ca7c15f678ca8daf36fe067f
        fe85768593fc0aad18f7c13e9b7f7847a56ac8b3a21a7f1d4818a4091ab2f515
        db9103babc0366a61dbb7b58e6783a24fa6b
        """)

    private static func hex(_ digits: String) -> Data { QUICRFCVectors.hex(digits) }
}
