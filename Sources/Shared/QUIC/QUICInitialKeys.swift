import Foundation

/// The keys protecting one side's Initial packets (RFC 9001 §5.2, RFC 9369 §3.3). They are
/// public by design — derived from the Destination Connection ID of the client's first Initial
/// and a salt fixed by the version — so a monitor can read what the client offers and what the
/// server answers.
///
///   initial_secret = HKDF-Extract(salt, client's first DCID)
///   secret = HKDF-Expand-Label(initial_secret, "client in" | "server in", "", 32)
///   key = Expand-Label(secret, <key label>, "", 16)   AEAD_AES_128_GCM
///   iv  = Expand-Label(secret, <iv label>,  "", 12)
///   hp  = Expand-Label(secret, <hp label>,  "", 16)   AES-128-ECB header protection
///
/// Derive once per connection and keep for all its Initials: later ones carry the server's CID
/// but are still protected with keys of the first (only a Retry changes them: the DCID of the
/// client's Initials after it, the Retry's SCID, is the one keys come from).
package struct QUICInitialKeys: Sendable, Hashable {
    package let version: QUICVersion
    /// 16 bytes, AEAD_AES_128_GCM.
    package let key: Data
    /// 12 bytes, XORed with the packet number to make each nonce.
    package let iv: Data
    /// 16 bytes, AES-128-ECB over the sample.
    package let headerProtectionKey: Data

    /// Whose Initials the keys open.
    package enum Sender: Sendable, Hashable {
        case client, server

        /// The label of the side's secret (RFC 9001 §5.2; RFC 9369 keeps both).
        var secretLabel: String {
            switch self {
            case .client: "client in"
            case .server: "server in"
            }
        }
    }

    /// The keys of `sender`'s Initials for `version` and the DCID of the client's first Initial;
    /// nil for a version with no known Initial protection (anything but 1 and 2), or should
    /// OpenSSL fail.
    package init?(version: QUICVersion, clientDestinationConnectionID: Data, sender: Sender = .client) {
        guard let labels = Labels(version),
              let secret = Self.secret(of: sender, salt: labels.salt, connectionID: [UInt8](clientDestinationConnectionID)),
              let key = HKDFSHA256.expandLabel(secret: secret, label: labels.key, length: 16),
              let iv = HKDFSHA256.expandLabel(secret: secret, label: labels.iv, length: 12),
              let hp = HKDFSHA256.expandLabel(secret: secret, label: labels.headerProtection, length: 16)
        else { return nil }
        self.version = version
        self.key = Data(key)
        self.iv = Data(iv)
        self.headerProtectionKey = Data(hp)
    }

    /// client_initial_secret or server_initial_secret: the 32-byte secret the three keys expand from.
    static func secret(of sender: Sender, salt: [UInt8], connectionID: [UInt8]) -> [UInt8]? {
        guard let initialSecret = HKDFSHA256.extract(salt: salt, inputKeyMaterial: connectionID) else { return nil }
        return HKDFSHA256.expandLabel(secret: initialSecret, label: sender.secretLabel, length: HKDFSHA256.hashLength)
    }

    /// Salt and labels of each version with known protection.
    struct Labels {
        let salt: [UInt8]
        let key: String
        let iv: String
        let headerProtection: String

        init?(_ version: QUICVersion) {
            switch version {
            case .v1:  // RFC 9001 §5.2, §5.1
                salt = [0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
                        0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a]
                (key, iv, headerProtection) = ("quic key", "quic iv", "quic hp")
            case .v2:  // RFC 9369 §3.3.1, §3.3.2
                salt = [0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
                        0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9]
                (key, iv, headerProtection) = ("quicv2 key", "quicv2 iv", "quicv2 hp")
            default:
                return nil
            }
        }
    }
}
