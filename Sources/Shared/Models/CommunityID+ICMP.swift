extension CommunityID {
    /// An ICMP (protocol 1) or ICMPv6 (58) message: the spec hashes its type and code where ports
    /// go, as Zeek does (the spec names Zeek's ICMP.cc and pycommunityid's icmp.py and icmp6.py).
    /// A type with a counterpart — a request or its reply — stands as (type, counterpart), the code
    /// left out, so both halves of the exchange have one ID; any other type is one-way, (type,
    /// code), and its endpoints are never turned round.
    package init(icmp proto: IPProtocolNumber, source: IPAddress, destination: IPAddress, type: UInt8, code: UInt8,
                seed: UInt16 = 0) {
        precondition(proto == .icmp || proto == .icmpv6, "\(proto.displayName) is not ICMP")
        let pairs = proto == .icmp ? Self.icmpv4Pairs : Self.icmpv6Pairs
        let counterpart = pairs.first { $0.0 == type }?.1 ?? pairs.first { $0.1 == type }?.0
        self.init(seed: seed, proto: proto, source: source, destination: destination,
                  ports: (UInt16(type), UInt16(counterpart ?? code)), oneWay: counterpart == nil)
    }

    /// ICMPv4 types that pair up (request, reply): echo (RFC 792), router solicitation and
    /// advertisement (RFC 1256), timestamp, information, address mask (RFC 950).
    static let icmpv4Pairs: [(UInt8, UInt8)] = [(8, 0), (10, 9), (13, 14), (15, 16), (17, 18)]

    /// ICMPv6 types that pair up: echo (RFC 4443), multicast listener query and report (RFC 2710),
    /// router and neighbor solicitation and advertisement (RFC 4861), who-are-you (node
    /// information, RFC 4620), home agent address discovery (RFC 6275).
    static let icmpv6Pairs: [(UInt8, UInt8)] = [(128, 129), (130, 131), (133, 134), (135, 136), (139, 140), (144, 145)]
}
