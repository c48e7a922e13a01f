import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// Fingerprints of real hellos, read by the scanners as the flows read them. The bytes are the TCP
/// payloads of FoxIO's reference captures (Tests/Captures/ja4: tls12.pcap, a Firefox
/// hello; tls-non-ascii-alpn.pcapng, a Chrome hello full of GREASE, and its server's answer); the
/// JA4s are the reference's published outputs, the JA3s and JA3S tshark 4.0's on the same frames.
@Suite("the scanners' fingerprints of real hellos")
struct HelloFingerprintTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static let firefox = bytes(
        "1603010200010001fc0303ecb2691addb2bf6c599c7aaae23de5f42561cc04eb41029acc6fc050a16ac1d22046f8617b" +
        "580ac9358e2aa44e306d52466bcc989c87c8ca64309f5faf50ba7b4d0022130113031302c02bc02fcca9cca8c02cc030" +
        "c00ac009c013c014009c009d002f00350100019100000021001f00001c636f6e74696c652e73657276696365732e6d6f" +
        "7a696c6c612e636f6d00170000ff01000100000a000e000c001d00170018001901000101000b00020100002300000010" +
        "000e000c02683208687474702f312e310005000501000000000022000a000804030503060302030033006b0069001d00" +
        "208909858fbeb6ed2f1248ba5b9e2978bead0e840110192c61daed0096798b184400170041044d183d91f5eed35791fa" +
        "982464e3b0214aaa5f5d1b78616d9b9fbebc22d11f535b2f94c686143136aa795e6e5a875d6c08064ad5b76d44caad76" +
        "6e2483012748002b00050403040303000d0018001604030503060308040805080604010501060102030201002d000201" +
        "01001c000240010015007a00000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "00000000000000000000000000000000000000000000000000000000000000000000000000")

    static let chrome = bytes(
        "1603010200010001fc03030f9e38acb9a54a7c6e00e29a70ac2feee180ff76d7f25dca84932a66a42d1e5a20bc58b92f" +
        "865e6b9aa4a6371cadcb0afe1da1c0f705209a11d52357f56d5dd9620020aaaa130113021303c02bc02fc02cc030cca9" +
        "cca8c013c014009c009d002f0035010001939a9a0000ff010001000033002b00290a0a000100001d0020cf55af2603e9" +
        "2f59eb321779706a18fa6b96b16c16404c2264ed687a59401878002d0002010100050005010000000044690005000302" +
        "6832000d00120010040308040401050308050501080606010010000e000c02baad08687474702f312e3100230000001b" +
        "0003020002002b0007060a0a0304030300000022002000001d636c69656e7473657276696365732e676f6f676c656170" +
        "69732e636f6d00120000000a000a00080a0a001d0017001800170000000b000201006a6a000100001500ba0000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" +
        "00000000000000000000000000000000000000000000000000000000000000000000000000")

    static let chromesServer = bytes(
        "160303007a020000760303897c232e3ee313314f2b662307ff4f7e2cf1caeec1b27711bca77f469519168520bc58b92f" +
        "865e6b9aa4a6371cadcb0afe1da1c0f705209a11d52357f56d5dd962130100002e00330024001d002076b8b7ed0f96b6" +
        "3a773d85ab6f3a87a151c130529785b41a4defb53184055957002b000203041403030001011703031272debd1a5c2b07" +
        "c5f6c5ddcaa243a28f0080a8f70de80ab54a4e8903d71bd864cc11ac5e80edf72c5fa1b7b45fee57287b32f3ca125ab8" +
        "8781e0fe861a5823351bacbfe696192371aaf20b049f299c7c5bc95862ee8fa3cb6d2a6c413f61da999b908a32442598" +
        "3403294ae0f6734c611dced79873d6667dbdb7383b65a9a977bd85681126816f85f09326ddfdadf6cefef86337fbf4ab" +
        "b4efd4c52c24016994d9e92d9b0d8d459955adcf7ef8c6b5b63249311310110fdfe88d24311119a593e1f87f0811bc6d" +
        "14677774dff9cb779904e4ef18076423541f7592a0ce608f60944e6adeacf9082248db83b19c3e8044c48468e665ec94" +
        "3f094359d2655a9893ad56dc3141b57c11ed4f32aa3904cdb5e7ead04d82f8395848c7b4dd16b5380f420270e5ae0ae1" +
        "bdf35bccae33ce9885c89e15ac06e4be1dea3aaca3c99a4144f927ea051c43ebdb9c748ee4997502d4ec8c0e2081dc2d" +
        "040db0a290ec26c9c3386682c8ea3599ae784206bfc0f6463a5b1d0f39f31d1797ed8bd49034cfa2e6584dbcb6c40c4a" +
        "67645c3380193739bb6b9532abfb9ecf7b1de23a46cb2cbe06ff6e7163b24bb2f1cceab3a49dd90907a0f05a1fc620cc" +
        "b8347d5ef6f90d3dc40c1288305aee31964c2ddee66ce987d8c42fc1f6aa3c426bf54cac3fa496a4aaafadf7101ada0c" +
        "4e3cdc7723c4ce5f0bf705b3c3e6d752bc801623ca85550871994b1240bd6291c57699f362531fb4fb98606003ad33dd" +
        "5288a267453791e571553cf0eea82c02f815e9c752b8591801c7d94ae3134e2134cbef677fb7d950cda1f29073b6c8ef" +
        "8f52042e9c472c601cc23a6cff89b6c27d137e810af1f2d2a4b5709da0684e7833f13b41eeac18f75de6bce44f0c2880" +
        "d4d1fd7f8d4996d81051054a810e94ac4a0d6d3124f05b191ac4db7334c855b1cbc4b2d1138faa5ad2e2be7937db7d9d" +
        "7e62ba901090230b1fac31d755463a6d656365c56724e93df736f61313b3b3c6246cfe83362a669721e7245ebafd484d" +
        "d758a889e3a1d57c018af2bc15b4e7a6e8ee12ae965b109b8a6b676b1167fff61a6d24c8150a026d8f6255001de170fc" +
        "06f99f08bd3d43548a8bfa811f53a139bed4c02ec4214868e837a685ec30da46dff3d6101345f6811beccae9dfafcd72" +
        "7fad181bd47718be842325061c7b3680c9f0527125fa17b578121860b135597e17663f5099dabd50429f9ba074b27b45" +
        "de81aeec2a4bce1f6429f6fa378edb7c2b8338be26134540c2f5351e401c2af05156029f1d63aa1e2f85c312eaeebf5e" +
        "744e87e095f68d59109730b6ae7e4ff5a66cf9ed29cf8c045f4863d072a73544d7efc0f20008111031798935d254b567" +
        "591ec11053f440b9f0a680bc7f6b541c6a29b7d5e83e42e87adb1c13d62b71cebb9175267e7ac0831ffea7573e655bcd" +
        "277599f1282e489b98dfb1e2ca0a3f9e2c59d3fb403ff88073906892b747c7f604cbef241a6286250ea359599cf8a51b" +
        "07662c593715d10414be651706a89f771e13f5b56329880a8e0d24b41bdecc174440462ba52379f81b2a0acee1f506db" +
        "e89186083ea41dc2fdc9d87fe082cf24d5b2d927a2e588c2a047e4b9c67bcd34fd8a3ceddd119ea3e423fcb6771f99ab" +
        "31676e477fd3eaf781da7112407f846e23c01d78a7dc7b13580c021cfc69e59693df475b9685e158a6e14ddb859d5da1" +
        "e54c8b9b70ce32278cee99ed86da63ad316ac5c3eff67535302e672defd6a0ee3624fc16d2f6afddd2a3a8bb58401e91" +
        "7fc0494d8b00cfe8fb90905b60ba0cc297d3b57d")

    static func fingerprints(_ record: [UInt8], chunk size: Int) -> ClientHelloFingerprints? {
        var scanner = ClientHelloScanner()
        for chunk in TLSVectors.chunks(record, size: size) { _ = scanner.scan(chunk) }
        return scanner.fingerprints
    }

    @Test("Firefox's hello: the reference's JA4 and tshark's JA3, however the stream is cut", arguments: [1, 7, 300, 4096])
    func firefox(size: Int) {
        let prints = Self.fingerprints(Self.firefox, chunk: size)
        #expect(prints?.ja4 == "t13d1715h2_5b57614c22b0_3d5424432f57")
        #expect(prints?.ja3Full == "771,4865-4867-4866-49195-49199-52393-52392-49196-49200-49162-49161-49171-49172-156-157-47-53,"
                + "0-23-65281-10-11-35-16-5-34-51-43-13-45-28-21,29-23-24-25-256-257,0")
        #expect(prints?.ja3 == "579ccef312d18482fc42e2b822ca2430")
    }

    /// GREASE in the cipher suites, extensions, groups and versions is left out. The reference
    /// prints "99" for the ALPN value 0xBA 0xAD; the specification now says "bd" (the README).
    @Test("Chrome's hello: GREASE left out, the reference's JA4 with the specification's ALPN rule, tshark's JA3")
    func chrome() {
        let prints = Self.fingerprints(Self.chrome, chunk: 4096)
        #expect(prints?.ja4 == "t13d1516bd_8daaf6152771_e5627efa2ab1")
        #expect(prints?.ja3Full == "771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,"
                + "65281-51-45-5-17513-13-16-35-27-43-0-18-10-23-11-21,29-23-24,0")
        #expect(prints?.ja3 == "1c258ebef8eee2dfa3df6d8d07285af9")
    }

    /// The relay's inspection candidate reads the hello only to decide; its stream scanners fingerprint it.
    @Test("a scanner told not to fingerprint reads the same name and offer, and computes no fingerprints")
    func withoutFingerprints() {
        var plain = ClientHelloScanner(config: .init(computesFingerprints: false))
        var full = ClientHelloScanner()
        let outcome = plain.scan(Data(Self.firefox))
        #expect(outcome == full.scan(Data(Self.firefox)) && outcome == .found("contile.services.mozilla.com"))
        #expect(plain.offer == full.offer && plain.limits == full.limits && plain.offer != nil)
        #expect(plain.fingerprints == nil && full.fingerprints != nil)
    }

    @Test("a hello cut short has no fingerprints: every proper prefix")
    func prefixes() {
        for length in stride(from: 0, to: Self.firefox.count, by: 13) {
            var scanner = ClientHelloScanner()
            _ = scanner.scan(Data(Self.firefox.prefix(length)))
            #expect(scanner.fingerprints == nil, "\(length) bytes")
        }
    }

    @Test("the server's answer: tshark's JA3S, however the stream is cut", arguments: [1, 5, 4096])
    func server(size: Int) {
        var scanner = ServerHelloScanner()
        for chunk in TLSVectors.chunks(Self.chromesServer, size: size) { _ = scanner.scan(chunk) }
        #expect(scanner.fingerprints == ServerHelloFingerprints(ja3sFull: "771,4865,51-43", ja3s: "eb1d94daa7e0344597e756a1fb6e7054"))
    }
}
