import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ClientHelloOfferTests {
    typealias V = TLSVectors

    /// The name's outcome and the offer, for a hello with these extensions.
    private func read(_ extensions: [[UInt8]]?, legacyVersion: UInt16 = 0x0303,
                      config: ClientHelloScanner.Config = .init()) -> (ClientHelloScanner.Outcome, ClientTLSOffer?) {
        var scanner = ClientHelloScanner(config: config)
        let outcome = scanner.scan(Data(V.clientHello(legacyVersion: legacyVersion, extensions: extensions)))
        return (outcome, scanner.offer)
    }

    private func offer(_ extensions: [[UInt8]]?, legacyVersion: UInt16 = 0x0303,
                       config: ClientHelloScanner.Config = .init()) -> ClientTLSOffer? {
        read(extensions, legacyVersion: legacyVersion, config: config).1
    }

    @Test("the golden hello offers TLS 1.3 and 1.2, h2 and http/1.1, no ECH")
    func goldenOffer() {
        var scanner = ClientHelloScanner()
        _ = scanner.scan(Data(V.clientHelloRecord))
        #expect(scanner.offer == ClientTLSOffer(versions: .listed([.tls13, .tls12]),
                                                applicationProtocols: ["h2", "http/1.1"]))
    }

    // MARK: versions

    @Test("supported_versions is kept in the client's order and wins over legacy_version")
    func listedVersions() {
        #expect(offer([V.supportedVersions([0x0303, 0x0304, 0x0302])])?.versions == .listed([.tls12, .tls13, .tls11]))
        #expect(offer([V.supportedVersions([0x0304])], legacyVersion: 0x0301)?.versions == .listed([.tls13]))
    }

    @Test("without supported_versions the legacy_version is a ceiling, with or without extensions")
    func legacyCeiling() {
        #expect(offer([V.serverName("a.com")], legacyVersion: 0x0302)?.versions == .upTo(.tls11))
        #expect(offer(nil, legacyVersion: 0x0301)?.versions == .upTo(.tls10))
        #expect(offer(nil)?.applicationProtocols == [])
    }

    @Test("all sixteen GREASE values are dropped from the versions; only those")
    func greaseVersions() {
        let grease = (0..<16).map { UInt16($0) << 12 | 0x0A0A | UInt16($0) << 4 }   // 0x0A0A … 0xFAFA
        #expect(grease.first == 0x0A0A && grease.last == 0xFAFA && Set(grease).count == 16)
        #expect(offer([V.supportedVersions(grease + [0x0304])])?.versions == .listed([.tls13]))
        #expect(offer([V.supportedVersions(grease)])?.versions == .listed([]))
        // Near misses are versions like any other: kept raw.
        let nearMisses: [UInt16] = [0x0A1A, 0x0A0B, 0x1A0A, 0x0B0B]
        #expect(offer([V.supportedVersions(nearMisses)])?.versions == .listed(nearMisses.map { TLSProtocolVersion(rawValue: $0) }))
    }

    @Test("a draft version is kept raw")
    func draftVersion() {
        #expect(offer([V.supportedVersions([0x7F1C, 0x0303])])?.versions
                == .listed([TLSProtocolVersion(rawValue: 0x7F1C), .tls12]))
    }

    // MARK: ALPN

    @Test("ALPN names in order, case kept; absent means none")
    func applicationProtocols() {
        #expect(offer([V.alpn("http/1.1", "h2", "HTTP/1.0")])?.applicationProtocols == ["http/1.1", "h2", "HTTP/1.0"])
        #expect(offer([V.serverName("a.com")])?.applicationProtocols == [])
        #expect(offer([V.serverName("a.com")])?.omittedApplicationProtocols == 0)
    }

    @Test("GREASE ALPN names are dropped without being counted")
    func greaseNames() {
        let result = offer([V.alpn([[0x1A, 0x1A], Array("h2".utf8), [0xFA, 0xFA]])])
        #expect(result?.applicationProtocols == ["h2"])
        #expect(result?.omittedApplicationProtocols == 0)
    }

    @Test("unprintable and overlong names are omitted and counted")
    func omittedNames() {
        let result = offer([V.alpn([[0x68, 0x00, 0x32], Array("h2".utf8), [0x68, 0x20, 0x32], [0xC3, 0xA9],
                                    [UInt8](repeating: 0x61, count: 33), [UInt8](repeating: 0x62, count: 32)])])
        #expect(result?.applicationProtocols == ["h2", String(repeating: "b", count: 32)])
        #expect(result?.omittedApplicationProtocols == 4)
    }

    @Test("names beyond the cap are counted, not kept")
    func nameCap() {
        let names = (1...11).map { "p\($0)" }
        let result = offer([V.alpn(names.map { Array($0.utf8) })])
        #expect(result?.applicationProtocols == Array(names.prefix(8)))
        #expect(result?.omittedApplicationProtocols == 3)
        let two = offer([V.alpn(names.map { Array($0.utf8) })], config: .init(maxApplicationProtocols: 2))
        #expect(two?.applicationProtocols == ["p1", "p2"] && two?.omittedApplicationProtocols == 9)
    }

    // MARK: ECH

    @Test("encrypted_client_hello is flagged, and only when present")
    func encryptedClientHello() {
        #expect(offer([V.serverName("public.example"), V.ext(0xFE0D, [0x00, 0x01, 0x02])])?.hasEncryptedClientHello == true)
        #expect(offer([V.serverName("public.example"), V.ext(0xFE0C, [])])?.hasEncryptedClientHello == false)
    }

    // MARK: the offer and the name

    @Test("an offer without a name, and one whose name comes after the other extensions")
    func offerAndName() {
        let (outcome, offer) = read([V.alpn("h2"), V.supportedVersions([0x0304])])
        #expect(outcome == .unavailable(.noServerName))
        #expect(offer == ClientTLSOffer(versions: .listed([.tls13]), applicationProtocols: ["h2"]))
        let (named, after) = read([V.alpn("h2"), V.serverName("late.example")])
        #expect(named == .found("late.example") && after?.applicationProtocols == ["h2"])
    }

    @Test("a malformed list costs the offer, not the name", arguments: [
        TLSVectors.ext(16, [0x00, 0x05, 0x02, 0x68, 0x32]),             // ALPN list longer than its data
        TLSVectors.ext(16, [0x00, 0x03, 0x00, 0x01, 0x61]),             // an empty ProtocolName
        TLSVectors.ext(16, [0x00, 0x00]),                               // an empty ALPN list
        TLSVectors.ext(43, [0x03, 0x03, 0x04, 0x03]),                   // versions: odd length
        TLSVectors.ext(43, [0x04, 0x03, 0x04]),                         // versions: list overruns
        TLSVectors.ext(43, [0x00]),                                     // versions: empty list
    ])
    func malformedListKeepsName(_ broken: [UInt8]) {
        let (before, lostBefore) = read([broken, V.serverName("kept.example")])
        #expect(before == .found("kept.example") && lostBefore == nil)
        let (after, lostAfter) = read([V.serverName("kept.example"), broken])
        #expect(after == .found("kept.example") && lostAfter == nil)
    }

    @Test("a repeated extension costs the offer, not the name")
    func repeatedExtension() {
        let (outcome, offer) = read([V.serverName("a.com"), V.supportedVersions([0x0304]), V.supportedVersions([0x0303])])
        #expect(outcome == .found("a.com") && offer == nil)
        #expect(read([V.alpn("h2"), V.serverName("a.com"), V.alpn("h2")]).1 == nil)
        #expect(read([V.ext(0xFE0D, []), V.ext(0xFE0D, [])]).1 == nil)
    }

    @Test("a block that breaks after the name keeps the name; before it, loses both")
    func brokenBlock() {
        // An extension header declaring 9 bytes where the block has 2 left.
        let lying: [UInt8] = [0x00, 0x05, 0x00, 0x09, 0xAA, 0xBB]
        let (after, offerAfter) = read([V.serverName("first.example"), lying])
        #expect(after == .found("first.example") && offerAfter == nil)
        let (before, offerBefore) = read([lying, V.serverName("first.example")])
        #expect(before == .unavailable(.malformed) && offerBefore == nil)
        let (dangling, offerDangling) = read([V.serverName("first.example"), [0x00]])  // half a type
        #expect(dangling == .found("first.example") && offerDangling == nil)
    }

    // MARK: when there is no offer

    @Test("no offer while bytes are missing, nor for a stream that is not TLS")
    func noOffer() {
        var scanner = ClientHelloScanner()
        _ = scanner.scan(Data(V.clientHelloRecord.dropLast()))
        #expect(scanner.offer == nil)
        var http = ClientHelloScanner()
        _ = http.scan(Data("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(http.offer == nil)
        var server = ClientHelloScanner()
        _ = server.scan(Data(V.serverHello13Record))
        #expect(server.offer == nil)
    }

    @Test("the same offer at every chunk boundary")
    func everyBoundary() {
        let expected = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"])
        for index in 1..<V.clientHelloRecord.count {
            var scanner = ClientHelloScanner()
            for chunk in V.split(V.clientHelloRecord, at: index) { _ = scanner.scan(chunk) }
            #expect(scanner.offer == expected, "split at \(index)")
        }
    }

    @Test("the offer stays as first read")
    func stickyOffer() {
        var scanner = ClientHelloScanner()
        _ = scanner.scan(Data(V.clientHello(extensions: [V.alpn("h2")])))
        _ = scanner.scan(Data(V.clientHello(extensions: [V.alpn("h3")])))
        #expect(scanner.offer?.applicationProtocols == ["h2"])
    }
}
