import Foundation
import PacketTunnel

/// ALPN's protocol list as it travels (RFC 7301 §3.1): each name one length byte then 1…255
/// bytes, no empty names. What `SSL_set_alpn_protos` takes and the select callback is handed.
enum ALPNWireList {
    /// The client's offer in its order; a name that cannot travel is refused, never dropped.
    static func encode(_ protocols: [String]) throws(TLSSessionFailure) -> [UInt8] {
        var wire: [UInt8] = []
        for name in protocols {
            let bytes = Array(name.utf8)
            guard (1...255).contains(bytes.count) else {
                throw TLSSessionFailure("the ALPN protocol name \"\(name)\" is \(bytes.count) bytes; RFC 7301 allows 1 to 255")
            }
            wire.append(UInt8(bytes.count))
            wire += bytes
        }
        return wire
    }

    /// Where `answer`'s name bytes sit inside the peer's offer, or nil when it was not offered or
    /// the offer is malformed (a length running past the end).
    static func locate(_ answer: [UInt8], in offer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var index = 0
        while index < offer.count {
            let length = Int(offer[index])
            let names = (index + 1)..<(index + 1 + length)
            guard length > 0, names.upperBound <= offer.count else { return nil }
            if offer[names].elementsEqual(answer) { return names }
            index = names.upperBound
        }
        return nil
    }
}
