import Foundation
import Testing
@testable import Shared

@Suite struct IPAddressTests {
    @Test(arguments: [
        ("2001:db8::1", "2001:db8::1"),
        ("2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"),           // RFC 5952 §4.1, §4.2.1
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),                       // §4.2.3: first of equal runs
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),                    // §4.2.2: one zero group stays
        ("2001:DB8::AAAA", "2001:db8::aaaa"),                                 // §4.3: lowercase
        ("2001:db8:0:0:0:1:0:0", "2001:db8::1:0:0"),                          // the longer run wins
        ("::", "::"), ("::1", "::1"), ("1::", "1::"),
        ("fd00:7::2", "fd00:7::2"),
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
        ("0:0:1:0:0:0:0:0", "0:0:1::"),
        ("10.7.0.2", "10.7.0.2"), ("0.0.0.0", "0.0.0.0"), ("255.255.255.255", "255.255.255.255"),
    ])
    func textFollowsRFC5952(input: String, expected: String) throws {
        let address = try #require(IPAddress(parsing: input))
        #expect(address.description == expected)
        #expect(IPAddress(parsing: expected) == address)
    }

    @Test func zonesAndGarbageAreRefused() {
        #expect(IPAddress(parsing: "fe80::1%eth0") == nil)
        #expect(IPAddress(parsing: "10.7.0") == nil)
        #expect(IPAddress(parsing: "") == nil)
        #expect(IPAddress(parsing: "example.com") == nil)
        #expect(IPAddress(bytes: [1, 2, 3] as [UInt8]) == nil)
    }

    @Test func bytesRoundTripInNetworkOrder() throws {
        let v4 = try #require(IPAddress(bytes: [198, 18, 0, 1] as [UInt8]))
        #expect(v4.version == .v4)
        #expect(v4.bytes == [198, 18, 0, 1])
        #expect(v4.description == "198.18.0.1")
        let v6Bytes: [UInt8] = [0xfd, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
        let v6 = try #require(IPAddress(bytes: v6Bytes))
        #expect(v6.bytes == v6Bytes)
        #expect(v6 == TunnelAddressing.ipv6Address)
    }

    @Test func everyIPv4AddressSortsBeforeEveryIPv6AddressThenByBytes() {
        let sorted = ["::", "255.255.255.255", "0.0.0.1", "fd00::1", "10.0.0.1", "::1", "9.255.255.255"]
            .map { IPAddress(parsing: $0)! }.sorted().map(\.description)
        #expect(sorted == ["0.0.0.1", "9.255.255.255", "10.0.0.1", "255.255.255.255", "::", "::1", "fd00::1"])
    }

    @Test func codableUsesThePresentationText() throws {
        let endpoint = IPEndpoint(address: TunnelAddressing.ipv6Address, port: 443)
        let data = try JSONEncoder().encode(endpoint)
        #expect(String(decoding: data, as: UTF8.self).contains("\"fd00:7::2\""))
        #expect(try JSONDecoder().decode(IPEndpoint.self, from: data) == endpoint)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(IPAddress.self, from: Data("\"nope\"".utf8)) }
    }

    @Test func endpointsPrintWithBracketsForIPv6() {
        #expect(GoldenVectors.endpoint("10.7.0.2", 443).description == "10.7.0.2:443")
        #expect(GoldenVectors.endpoint("fd00:7::2", 443).description == "[fd00:7::2]:443")
    }
}
