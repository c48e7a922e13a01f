import Foundation

/// The server's side of the same appendices: RFC 9001 §A.1 and §A.3 (QUIC v1) and RFC 9369 §A.1
/// and §A.3 (QUIC v2) — the server's keys of DCID 8394c8f03e515708 and its Initial answering
/// the client's, an ACK and a CRYPTO frame holding a TLS 1.3 ServerHello with
/// TLS_AES_128_GCM_SHA256. Hex copied from the transcription in aioquic's tests/test_crypto_v1.py
/// and tests/test_crypto_v2.py (test_derive_key_iv_hp's server lines, LONG_SERVER_*), which
/// quote the RFCs. Nothing here was computed by our code.
extension QUICRFCVectors {
    /// Both RFCs' §A.3 Initial: packet number 1, encoded in 2 bytes.
    static let serverPacketNumber: UInt64 = 1
    /// Both RFCs' §A.3 payload: ACK of packet 0, then the ServerHello in a CRYPTO frame at offset 0.
    static let serverPayload = hex("""
        02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739
        88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94
        0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00
        020304
        """)
    /// The server's Source Connection ID in §A.3 (its Initial's DCID is empty: the client's SCID).
    static let serverSourceConnectionID = hex("f067a5502a4262b5")

    package enum ServerV1 {
        // RFC 9001 §A.1
        package static let key = hex("cf3a5331653c364c88f0f379b6067e37")
        package static let iv = hex("0ac1493ca1905853b0bba03e")
        package static let headerProtectionKey = hex("c206b8d9b9f0f37644430b490eeaa314")
        // RFC 9001 §A.3
        static let unprotectedHeader = hex("c1000000010008f067a5502a4262b50040750001")
        package static let protectedPacket = hex("""
            cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a
            5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3
            dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84
            022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4
            2158407dd074ee
            """)
    }

    package enum ServerV2 {
        // RFC 9369 §A.1
        package static let key = hex("82db637861d55e1d011f19ea71d5d2a7")
        package static let iv = hex("dd13c276499c0249d3310652")
        package static let headerProtectionKey = hex("edf6d05c83121201b436e16877593c3a")
        // RFC 9369 §A.3
        static let unprotectedHeader = hex("d16b3343cf0008f067a5502a4262b50040750001")
        package static let protectedPacket = hex("""
            dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698
            baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17
            f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2
            c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8
            4bed8521e2e140
            """)
    }
}
