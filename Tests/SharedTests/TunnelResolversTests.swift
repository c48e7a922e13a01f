import Testing
@testable import Shared

@Suite("Which resolvers the tunnel announces")
struct TunnelResolversTests {
    func addresses(_ texts: String...) -> [IPAddress] { texts.map { IPAddress(parsing: $0)! } }

    @Test("loopback, IPv6 link-local, unspecified and repeats are left out; private and IPv4 link-local stay")
    func filter() {
        let reported = addresses("127.0.0.53", "192.168.1.1", "::1", "fe80::1", "0.0.0.0", "::", "169.254.1.1",
                                 "fd00:19::2", "192.168.1.1", "127.1.2.3")
        #expect(TunnelResolvers.announceable(from: reported) == addresses("192.168.1.1", "169.254.1.1", "fd00:19::2"))
    }

    @Test("nothing announceable is an empty list, not a guess")
    func nothingLeft() {
        #expect(TunnelResolvers.announceable(from: addresses("127.0.0.53", "fe80::1")).isEmpty)
    }

    @Test("resolv.conf's nameserver lines are read in order, everything else ignored")
    func parse() {
        let text = """
        # comment
        search lab.test
        nameserver 198.19.0.2
        nameserver\tfd00:19::2
        nameserver fe80::1%eth0
        options edns0
        nameserver not-an-address
        ;nameserver 1.2.3.4
        """
        #expect(TunnelResolvers.nameservers(inResolvConf: text) == addresses("198.19.0.2", "fd00:19::2"))
    }

    @Test("the namespace's resolv.conf lists what is announced")
    func write() {
        let text = TunnelResolvers.resolvConf(announcing: addresses("198.19.0.2", "fd00:19::2"))
        #expect(TunnelResolvers.nameservers(inResolvConf: text) == addresses("198.19.0.2", "fd00:19::2"))
        #expect(text.hasPrefix("#"))
    }
}
