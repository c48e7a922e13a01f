import Testing
@testable import Shared

/// JA3 and JA3S against Salesforce's README (github.com/salesforce/ja3 at
/// 421dd4f3616b533e6971bb700289c6bb8355e707): its strings and their hashes.
@Suite("JA3")
struct JA3Tests {
    @Test("the README's hello gives its JA3 string and hash")
    func readmeExample() {
        let hello = ClientHelloTraits(transport: .tcp, legacyVersion: 769,
                                      cipherSuites: [47, 53, 5, 10, 49161, 49162, 49171, 49172, 50, 56, 19, 4],
                                      extensionTypes: [0, 10, 11], groups: [23, 24, 25], pointFormats: [0])
        let prints = ClientHelloFingerprints(hello)
        #expect(prints.ja3Full == "769,47-53-5-10-49161-49162-49171-49172-50-56-19-4,0-10-11,23-24-25,0")
        #expect(prints.ja3 == "ada70206e40642a3e4461f35503241d5")
    }

    @Test("a hello without extensions leaves the last three fields empty")
    func noExtensions() {
        let hello = ClientHelloTraits(transport: .tcp, legacyVersion: 769, cipherSuites: [4, 5, 10, 9, 100, 98, 3, 6, 19, 18, 99],
                                      extensionTypes: [])
        #expect(JA3.string(hello) == "769,4-5-10-9-100-98-3-6-19-18-99,,,")
        #expect(JA3.hash(JA3.string(hello)) == "de350869b8c85de67a350c8d186f11e6")
    }

    @Test("JA3S is the server's version, its cipher suite and its extensions in order")
    func serverString() {
        let prints = ServerHelloFingerprints(ServerHelloTraits(legacyVersion: 0x0303, cipherSuite: 0xC02F,
                                                               extensionTypes: [0xFF01, 0x0000, 0x000B]))
        #expect(prints.ja3sFull == "771,49199,65281-0-11")
        #expect(prints.ja3s == JA3.hash("771,49199,65281-0-11"))
        #expect(prints.ja3s.count == 32 && prints.ja3s.allSatisfy(\.isHexDigit))
    }
}
