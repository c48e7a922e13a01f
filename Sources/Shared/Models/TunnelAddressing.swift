/// The tunnel's own addresses. The bytes are the source of truth; every text form is derived from
/// them, so the namespace can never be given one address while the pipeline compares against
/// another (which would invert the direction of every packet in the history).
///
/// The iOS spec's 10.7.0.2 becomes 198.18.0.2: every address this project assigns comes from the
/// benchmarking range 198.18.0.0/15 (RFC 2544) or ULA fd00::/8, so it can never shadow a network
/// a person really uses. The monitored program reaches every other address through the default
/// route as before.
package enum TunnelAddressing {
    /// 198.18.0.2/24
    package static let ipv4Address = IPAddress(bytes: [198, 18, 0, 2] as [UInt8])!
    package static let ipv4PrefixLength = 24
    /// fd00:7::2/64
    package static let ipv6Address = IPAddress(bytes: [0xfd, 0x00, 0x00, 0x07, 0, 0, 0, 0,
                                                      0, 0, 0, 0, 0, 0, 0, 0x02] as [UInt8])!
    package static let ipv6PrefixLength = 64
    /// The tunnel's default MTU: the largest a TUN link carries, as pasta and slirp4netns use.
    /// Measured in the lab with metadata capture: 174 MB/s at 1 500 against 609 MB/s at 65 520
    /// (the relay's cost is per packet, and a large MTU cuts the packet rate by 40×). `run --mtu
    /// 1500` gives a real link's segmentation when that is what is being studied.
    package static let mtu = 65_520

    /// The device's own addresses: what tells the local end of a canonical `FlowKey`.
    package static let localAddresses: Set<IPAddress> = [ipv4Address, ipv6Address]

    /// `198.18.0.2/24`, for `ip addr add`.
    package static var ipv4CIDR: String { "\(ipv4Address)/\(ipv4PrefixLength)" }
    /// `fd00:7::2/64`, for `ip addr add`.
    package static var ipv6CIDR: String { "\(ipv6Address)/\(ipv6PrefixLength)" }
}
