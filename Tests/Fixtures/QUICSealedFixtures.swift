import Foundation

/// Client Initials protected by aioquic 1.7.2 (pip), not by our code: its `CryptoPair` seals each
/// header and payload below (`aioquicDatagram` is a real `QuicConnection` client Initial, made
/// offline), and the ClientHello inside it was read back with aioquic's own server-side keys.
/// Produced by this script, run with /root/.pyenv/versions/3.11.7/bin/python3, output pasted:
///
/// ```python
/// # Seals QUIC client Initials with aioquic 1.7.2's own packet protection (CryptoPair), for
/// # TunnelVision's tests. Output: Swift hex literals.
/// from aioquic.quic.crypto import CryptoPair
/// from aioquic.quic.packet import QuicProtocolVersion
/// from aioquic.quic.configuration import QuicConfiguration
/// from aioquic.quic.connection import QuicConnection
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
/// def seal(version, key_cid, dcid, scid, token, pn, pn_len, payload):
///     initial_type = 0 if version == V1 else 1
///     first = 0xC0 | (initial_type << 4) | (pn_len - 1)
///     truncated = (pn & ((1 << (8 * pn_len)) - 1)).to_bytes(pn_len, "big")
///     header = (bytes([first]) + version.to_bytes(4, "big") + bytes([len(dcid)]) + dcid
///               + bytes([len(scid)]) + scid + varint(len(token)) + token
///               + varint2(pn_len + len(payload) + 16) + truncated)
///     pair = CryptoPair()
///     pair.setup_initial(cid=key_cid, is_client=True, version=version)
///     return pair.send.encrypt_packet(header, payload, pn)
///
/// def emit(name, data):
///     print(f"    static let {name} = hex(\"\"\"")
///     h = data.hex()
///     for i in range(0, len(h), 64):
///         print("        " + h[i:i + 64])
///     print("        \"\"\")")
///
/// CID = bytes.fromhex("5a5b5c5d5e5f6061")
/// BODY = crypto(0, b"fixture!") + bytes(4)
/// for version, tag in ((V1, "v1"), (V2, "v2")):
///     for pn_len, pn in ((1, 0x2A), (2, 0x1234), (3, 0x012345), (4, 0x01234567)):
///         emit(f"{tag}PacketNumberLength{pn_len}", seal(version, CID, CID, b"", b"", pn, pn_len, BODY))
/// emit("v1Shortest", seal(V1, CID, CID, b"", b"", 0, 1, b"\x01\x00\x00"))
/// emit("v1TokenAndSourceCID", seal(V1, CID, bytes.fromhex("aaaaaaaaaaaaaaaa"), bytes.fromhex("0102030405"),
///                                   bytes.fromhex("746f6b656e2d746f6b656e21"), 1, 2, crypto(0, b"token+scid") + bytes(3)))
/// emit("v2ServerChosenCID", seal(V2, CID, bytes.fromhex("f0e1d2c3b4a59687"), b"", b"", 2, 1,
///                                crypto(0, b"after the switch") + bytes(2)))
/// first = seal(V1, CID, CID, b"", b"", 3, 1, crypto(0, b"first half") + bytes(2))
/// second = seal(V1, CID, CID, b"", b"", 4, 1, crypto(10, b"second half") + b"\x01" + bytes(2))
/// emit("v1Coalesced", first + second + bytes(8))
/// print(f"    // first packet: {len(first)} bytes, second: {len(second)} bytes")
/// emit("v1PacketNumber261", seal(V1, CID, CID, b"", b"", 261, 1, crypto(0, b"late") + bytes(4)))
///
/// # A real client Initial: aioquic connecting to example.org, offline (no network).
/// config = QuicConfiguration(is_client=True, server_name="example.org", alpn_protocols=["h3"])
/// conn = QuicConnection(configuration=config)
/// conn.connect(("192.0.2.1", 443), now=0)
/// datagram = conn.datagrams_to_send(now=0)[0][0]
/// dcid = datagram[6:6 + datagram[5]]
/// emit("aioquicDatagram", datagram)
/// emit("aioquicOriginalDCID", dcid)
/// # Open it with aioquic's server-side keys to learn the ClientHello it carries.
/// server = CryptoPair()
/// server.setup_initial(cid=dcid, is_client=False, version=V1)
/// pos = 6 + len(dcid)
/// pos += 1 + datagram[pos]          # SCID
/// assert datagram[pos] == 0; pos += 1   # no token
/// length = ((datagram[pos] & 0x3F) << 8) | datagram[pos + 1]; pos += 2
/// _, payload, pn, _ = server.recv.decrypt_packet(datagram[:pos + length], pos, 0)
/// print(f"    // aioquic datagram: {len(datagram)} bytes, pn {pn}, packet length {pos + length}")
/// from aioquic.buffer import Buffer
/// buf = Buffer(data=payload)
/// hello = bytearray()
/// while not buf.eof():
///     t = buf.pull_uint_var()
///     if t == 0: continue
///     if t == 1: continue
///     assert t == 6, t
///     off = buf.pull_uint_var(); n = buf.pull_uint_var(); d = buf.pull_bytes(n)
///     assert off == len(hello); hello += d
/// emit("aioquicClientHello", bytes(hello))
///
/// # The same ClientHello split across two Initials, frames out of order (like Chrome's chaos
/// # protection): packet 0 has [150, end), PING, [0, 40) and padding; packet 1 has [30, 160).
/// h = bytes(hello)
/// p0 = crypto(150, h[150:]) + b"\x01" + crypto(0, h[:40]) + bytes(5)
/// p1 = crypto(30, h[30:160]) + bytes(3)
/// emit("splitHelloFirst", seal(V1, CID, CID, b"", b"", 0, 1, p0))
/// emit("splitHelloSecond", seal(V1, CID, CID, b"", b"", 1, 1, p1))
/// ```
package enum QUICSealedFixtures {
    /// The DCID every sealed fixture's keys derive from (except `aioquicDatagram`).
    package static let connectionID = hex("5a5b5c5d5e5f6061")
    /// The frames of the `…PacketNumberLength…` fixtures: CRYPTO at 0 "fixture!", 4 PADDING bytes.
    package static let fixtureFrames = hex("0600086669787475726521" + "00000000")

    /// Version 1, DCID `connectionID`, no SCID or token; packet number 42 in 1 byte; `fixtureFrames`.
    package static let v1PacketNumberLength1 = hex("""
        c600000001085a5b5c5d5e5f606100004020af3c689c13f0ffa6caf52d12defc
        c16761527b1fb0eec57fae0e8d2698aeb5e2
        """)
    /// As above, packet number 0x1234 in 2 bytes.
    package static let v1PacketNumberLength2 = hex("""
        c000000001085a5b5c5d5e5f606100004021f599b6e5d794b378f6fae59ba169
        ca2406f34740e8832a6abdcbfd2db2ff68d94c
        """)
    /// As above, packet number 0x012345 in 3 bytes.
    package static let v1PacketNumberLength3 = hex("""
        cd00000001085a5b5c5d5e5f6061000040227930284e4f16c866a3fcdbfc02f6
        64fce50cdb1cddf939f4db6b80e7bea2abf7b4ac
        """)
    /// As above, packet number 0x01234567 in 4 bytes.
    package static let v1PacketNumberLength4 = hex("""
        cb00000001085a5b5c5d5e5f606100004023db9bd5db6b9b265af8fa3541cda3
        e8463c593f4bf9eb6bd32b9a6c251617f07ce31a17
        """)
    /// Version 2 (Initial type bits 01), otherwise as `v1PacketNumberLength1`.
    package static let v2PacketNumberLength1 = hex("""
        d66b3343cf085a5b5c5d5e5f606100004020ebc19b16ac4e885627c23b0151f9
        f8eda1650451defe41ae578e0b8b56b071c2
        """)
    /// Version 2, packet number 0x1234 in 2 bytes.
    package static let v2PacketNumberLength2 = hex("""
        d06b3343cf085a5b5c5d5e5f606100004021129734094356b350d2f9390be43e
        467ddcec0622c478b9cf93cc615f5b39164926
        """)
    /// Version 2, packet number 0x012345 in 3 bytes.
    package static let v2PacketNumberLength3 = hex("""
        d06b3343cf085a5b5c5d5e5f6061000040222e044bf99c69223c4a63f68a45a0
        e38baa468685001c9933659b5493c2ac5b31d8f4
        """)
    /// Version 2, packet number 0x01234567 in 4 bytes.
    package static let v2PacketNumberLength4 = hex("""
        d06b3343cf085a5b5c5d5e5f60610000402361f1de1b15ceadce139ec28d9f51
        80cf2eb16fba57397f65f0292a75331a71c7b4160b
        """)
    /// Length 20, the least that can be sampled: 1-byte packet number 0, PING + 2 PADDING, tag.
    package static let v1Shortest = hex("""
        c800000001085a5b5c5d5e5f60610000401454fbc56df8868552a74857de9d18
        4bec2016514f
        """)
    /// DCID aaaaaaaaaaaaaaaa (keys still from `connectionID`), SCID 0102030405, 12-byte token
    /// "token-token!", packet number 1 in 2 bytes; CRYPTO at 0 "token+scid" + 3 PADDING.
    package static let v1TokenAndSourceCID = hex("""
        c00000000108aaaaaaaaaaaaaaaa0501020304050c746f6b656e2d746f6b656e
        214022407d21bbe72728752ddfc869a50076c2cf536c4b60c03e0e923a5f53b5
        881f58cfd2
        """)
    /// Version 2, DCID f0e1d2c3b4a59687 (the server's) under keys of `connectionID`, packet number 2;
    /// CRYPTO at 0 "after the switch" + 2 PADDING.
    package static let v2ServerChosenCID = hex("""
        d66b3343cf08f0e1d2c3b4a5968700004026bcf658f11ae6813076a7a8440e20
        67048dbeefbdd3bb0614fda213dbb2c6b8890ec10fe5672f
        """)
    package static let v1CoalescedFirstLength = 50
    package static let v1CoalescedSecondLength = 52
    /// Two Initials in one datagram, then 8 zero bytes: packet number 3 with CRYPTO at 0 "first half",
    /// then packet number 4 with CRYPTO at 10 "second half" and a PING.
    package static let v1Coalesced = hex("""
        cb00000001085a5b5c5d5e5f606100004020dc98ae3852f51ee8c321875a1d92
        8f7770d03b29b187daa058eac430c4e53c04c100000001085a5b5c5d5e5f6061
        000040229e888d0386c648f35ba32b8f099fe2fe3ca748b2d464baab3b057e0c
        9bcdff59a13c0000000000000000
        """)
    /// Packet number 261 sent as its low byte 0x05: opens only knowing 256 was seen. CRYPTO "late".
    package static let v1PacketNumber261 = hex("""
        c800000001085a5b5c5d5e5f60610000401c424ab898bf35505ff4bd501639e6
        0d1b8cfe373abba5813b27bc99b2
        """)
    package static let aioquicPacketLength = 520
    /// A real aioquic client Initial (server name example.org, ALPN h3, packet number 0), padded
    /// with zeros after the packet to 1200 bytes.
    package static let aioquicDatagram = hex("""
        ca0000000108ab300c3db949b382085d53800df591c42a0041ee6f888c35a750
        f1a83120dd85c5aa5f430619dabb35d026e7f84368b87ae597a0d90880ba69f5
        7516b7642baee24275f15a410243c519680568c1036dc21db34135cd64578e7f
        fb2e5a63940438e13c0cb05cb0ae5ef0e1745c59bc81048b8c4ed807b0e78810
        9984233e3231d1fba645fe706e3b4808c4e3cdf37aa8b37cd28eacb9f07e85f9
        0c853a008eb1b648042300ef17ecdb81a8ee09a2ef0ddc998b68910c1476a082
        42641ebf49c032082d56465a5fb502bc142c023abfe585fb65e0a9c6c8df10f8
        13ffd7698f9400f8416edac32e93c9f649332064a6db80f44481cf37e5c5c237
        58ec47d1cb40314cd2320a3413de5016c59e21a0c31fc70ab4da7ddfa8224ad0
        e4b60ab498fe728625d7ebf10e98e1fc5841b9172943d19e4f2ded9b6887a5b5
        69c644a4f739683f9ee44d27dad714e8b54762d2b0fa08fbc22133bbd3c962f7
        8cd0dbae6121e55b1edf4d360f8d0c0ac00204a15cd2504bc53ba08d26723ca9
        a8c9683072dda06d4b645dc9fcca9894c235c55263af66613d92702eca1828ea
        e6198400c329a392c8a5d0c2c8ee619251b7d4037652ed6e15aa75f8ba661647
        fc962dba9d11ab4407ea61c201e2d54cd8ab710d21f640b419273984c7bf2da8
        272d7e45f34c5ff32e21e17a004227be6e329e51224b9b681c260a3fe3598bf2
        083979871ea76e8f000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        0000000000000000000000000000000000000000000000000000000000000000
        00000000000000000000000000000000
        """)
    /// The DCID of `aioquicDatagram`.
    package static let aioquicOriginalDCID = hex("""
        ab300c3db949b382
        """)
    /// The ClientHello `aioquicDatagram` carries (its whole Initial crypto stream).
    package static let aioquicClientHello = hex("""
        010001d40303befe2cc813123255db27a01d1b280c5ca53bc825afbb5e735dd4
        6ea44f34d5a4000006130213011303010001a50033010c010a0017004104c3cd
        7bc1dd5219b5b99b857686def93a453da112c5a0da690562a04b4ddec6ca91fe
        ab9c834be3e2dc6eaaafe85e075a090935e70dc0850b690d16e301d6ee8b0018
        00610406830758efe02051d12e7c41ac22366e8be8e7f688eeb4a099e788b192
        70e6e4e753182725770a0e6d4f553f007781e3247e4f16f0a8399b51aa02a7ab
        52041051b912f951e9dad70092949d5c0ff293f20a457a6a099c321d62fd1707
        54eb77001d00200dfd128fcc43cc43b99616360970ef45abb14470d0c4b5fc13
        bcd68033ccc16b001e00389374145678a08cdf1d285c9020944c3700e9359d0a
        a6d00923665e71a6c9d0c6a7c2e50c628b3cd544f4f11606056802a68ca222bd
        dcf139002b0003020304000d0014001204030804040105030805050102010807
        0808000a000a000800170018001d001e00000010000e00000b6578616d706c65
        2e6f72670010000500030268330039004701048000ea60040480100000050480
        10000006048010000007048010000008024080090240800a01030b01190e0108
        0f085d53800df591c42a110c00000001000000016b3343cf
        """)
    /// `aioquicClientHello` split over two Initials: this one (packet number 0) holds [150, end), a
    /// PING, [0, 40) and padding.
    package static let splitHelloFirst = hex("""
        c300000001085a5b5c5d5e5f6061000041896dfc85fb1d61808991179fc3f4dc
        5ec3a76063dbba78ad8899c30627a44800a9f1a4a0fb5f7861d53d92518bab6a
        2227f438ac4603ac377a44a796bc3e3fdb8ff085648a43f15ce8c53e17b28537
        8a20b4db20b65ebed34ab2986c5eddaf8ff4219afbb78c75408d52936d159526
        d728fe77739668572fc6dcd4696447a05c631f5f3f7d9f44763a4e52f29cd3ba
        b6f931fcd88796cfd81749f8c19cd427e8e74a7c2f51cd474667a2a745f5c009
        6733ee49f61b50de1d56e5b276e6236927dda4508e728432a2dd0598ed3d1807
        0a0cc6715aa51d6b5279f228424b40adf344d96729241760b359bd41debd9c92
        12133b47a4fa651eb4a50190a066a3503ec2549bae6b3dfcedb7a588303467c5
        a21764504773e214f9035e654671ab8e910ab434fbf8756b0516062147e606c6
        8b36437bd15f695b8a137e65c81661c0a9f368c1663366413d6900f13b05126a
        c7f2fd7076105668e79f9ec4563f69510d24872d6fef3342c47aa30f961ce5e6
        f2663563705b15a96ae551902570412e12b3a6ef5817ade69b62c4
        """)
    /// The second (packet number 1): [30, 160), overlapping both pieces of the first.
    package static let splitHelloSecond = hex("""
        cc00000001085a5b5c5d5e5f60610000409a8c21a5add11aca2615ac2e13cd12
        c2c94029662c609c120fd7ff491d6decf22d475d564d57a6d1e915c442936577
        d0ed62e6e5e9737166ed1a769b9927204a9a5322c78d2e8f34299e3f9871e58d
        6d7cb20ccf5af7b1b62fb00df78d6e998c4f859ed8704e6323d61d5ea4d2bbb3
        aebdfc0b5ebd81ec7c4135833143c439537c3ad222e86d42cb2cfa8d81667c76
        aa4ebe4eada7ca25dd80fddb
        """)

    private static func hex(_ digits: String) -> Data { QUICRFCVectors.hex(digits) }
}
