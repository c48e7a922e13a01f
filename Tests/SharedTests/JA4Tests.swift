import Testing
@testable import Shared

/// JA4 against FoxIO's specification (github.com/FoxIO-LLC/ja4, technical_details/JA4.md at
/// 0e54bc8371de34df94a35f2442c05bda2e8b2034): its worked example and its ALPN examples.
@Suite("JA4")
struct JA4Tests {
    /// The specification's example hello: TLS 1.3 over TCP, SNI, ALPN h2.
    static let example = ClientHelloTraits(
        transport: .tcp, legacyVersion: 0x0303,
        cipherSuites: [0x1301, 0x1302, 0x1303, 0xC02B, 0xC02F, 0xC02C, 0xC030, 0xCCA9, 0xCCA8, 0xC013, 0xC014, 0x009C,
                       0x009D, 0x002F, 0x0035],
        extensionTypes: [0x001B, 0x0000, 0x0033, 0x0010, 0x4469, 0x0017, 0x002D, 0x000D, 0x0005, 0x0023, 0x0012,
                         0x002B, 0xFF01, 0x000B, 0x000A, 0x0015],
        supportedVersions: [0x0304, 0x0303],
        signatureAlgorithms: [0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601],
        firstApplicationProtocol: Array("h2".utf8))

    @Test("the specification's example hello gives its fingerprint")
    func specificationExample() {
        #expect(JA4.fingerprint(Self.example) == "t13d1516h2_8daaf6152771_e5627efa2ab1")
    }

    @Test("the cipher list is sorted and hashed as the specification writes it")
    func cipherList() {
        #expect(JA4.hexList(Self.example.cipherSuites.sorted())
                == "002f,0035,009c,009d,1301,1302,1303,c013,c014,c02b,c02c,c02f,c030,cca8,cca9")
    }

    @Test("without signature algorithms the extension hash ends without an underscore")
    func noSignatureAlgorithms() {
        var hello = Self.example
        hello.signatureAlgorithms = []
        #expect(JA4.fingerprint(hello).hasSuffix("_6d807ffa2a79"))
    }

    @Test("a hello over QUIC begins with q, one without SNI says i, and no ALPN is 00")
    func firstPart() {
        var hello = Self.example
        hello.transport = .quic
        hello.extensionTypes.removeAll { $0 == 0x0000 || $0 == 0x0010 }
        hello.firstApplicationProtocol = nil
        #expect(JA4.prefix(hello) == "q13i151400")
    }

    @Test("the version is the highest supported_versions value, else legacy_version; unknown is 00")
    func version() {
        var hello = Self.example
        hello.supportedVersions = nil
        #expect(JA4.versionCode(hello) == "12")
        hello.legacyVersion = 0x0300
        #expect(JA4.versionCode(hello) == "s3")
        hello.supportedVersions = [0x7F1C]
        #expect(JA4.versionCode(hello) == "00")
        hello.supportedVersions = [0xFEFD]
        #expect(JA4.versionCode(hello) == "d2")
    }

    @Test("ALPN: the first and last alphanumeric characters, else the first and last hex digits",
          arguments: [([UInt8]("h2".utf8), "h2"), (Array("http/1.1".utf8), "h1"), ([0x61], "aa"), ([0xAB], "ab"),
                      ([0x20], "20"), ([0xAB, 0xCD], "ad"), ([0x20, 0x61], "21"), ([0x30, 0xAB], "3b"),
                      ([0x61, 0x20], "60"), ([0x30, 0x31, 0xAB, 0xCD], "3d"), ([0x30, 0xAB, 0xCD, 0x31], "01"), ([], "00")])
    func alpn(value: [UInt8], code: String) {
        #expect(JA4.alpnCode(value) == code)
    }

    @Test("no ciphers and no extensions give twelve zeros, not the hash of nothing")
    func emptyLists() {
        let hello = ClientHelloTraits(transport: .tcp, legacyVersion: 0x0303, cipherSuites: [], extensionTypes: [0x0000])
        #expect(JA4.fingerprint(hello) == "t12d000100_000000000000_000000000000")
    }

    @Test("counts stop at 99")
    func counts() {
        let hello = ClientHelloTraits(transport: .tcp, legacyVersion: 0x0303, cipherSuites: Array(1...120),
                                      extensionTypes: Array(1...100))
        #expect(JA4.prefix(hello) == "t12i999900")
    }
}
