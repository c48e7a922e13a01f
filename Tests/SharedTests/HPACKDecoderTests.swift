import Foundation
@testable import Shared
import Testing
import TestSupport

/// RFC 7541's own examples (Appendix C) are the golden vectors; Python's `hpack` is the oracle for
/// the static table, every symbol's Huffman code and a few hundred blocks its encoder wrote.
@Suite struct HPACKDecoderTests {
    static func bytes(_ hex: String) -> [UInt8] { HexText.bytes(hex) }

    static func pairs(_ fields: [HPACKHeaderField]) -> [[String]] { fields.map { [$0.name, $0.value] } }

    static let request1 = [[":method", "GET"], [":scheme", "http"], [":path", "/"], [":authority", "www.example.com"]]
    static let request2 = request1 + [["cache-control", "no-cache"]]
    static let request3 = [[":method", "GET"], [":scheme", "https"], [":path", "/index.html"], [":authority", "www.example.com"],
                           ["custom-key", "custom-value"]]

    @Test("C.2's four representations: indexed name with a literal, a literal name, never indexed, and an indexed field")
    func literalRepresentations() throws {
        var decoder = HPACKDecoder()
        #expect(Self.pairs(try decoder.decode(Self.bytes("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")[...]))
                == [["custom-key", "custom-header"]])
        #expect(decoder.tableSize == 55)
        var fresh = HPACKDecoder()
        #expect(Self.pairs(try fresh.decode(Self.bytes("040c 2f73 616d 706c 652f 7061 7468")[...])) == [[":path", "/sample/path"]])
        #expect(fresh.tableSize == 0)
        let secret = try fresh.decode(Self.bytes("1008 7061 7373 776f 7264 0673 6563 7265 74")[...])
        #expect(secret == [HPACKHeaderField(name: "password", value: "secret", neverIndexed: true)] && fresh.tableSize == 0)
        #expect(Self.pairs(try fresh.decode([0x82][...])) == [[":method", "GET"]])
    }

    @Test("C.3's and C.4's three requests read in order through one dynamic table, plain and Huffman-coded", arguments: [
        ["8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", "8286 84be 5808 6e6f 2d63 6163 6865",
         "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65"],
        ["8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", "8286 84be 5886 a8eb 1064 9cbf",
         "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"],
    ])
    func rfcRequests(_ blocks: [String]) throws {
        var decoder = HPACKDecoder()
        #expect(Self.pairs(try decoder.decode(Self.bytes(blocks[0])[...])) == Self.request1 && decoder.tableSize == 57)
        #expect(Self.pairs(try decoder.decode(Self.bytes(blocks[1])[...])) == Self.request2 && decoder.tableSize == 110)
        #expect(Self.pairs(try decoder.decode(Self.bytes(blocks[2])[...])) == Self.request3 && decoder.tableSize == 164)
    }

    @Test("C.6's three Huffman-coded responses in a 256-byte table evict the oldest entries as they go")
    func rfcResponsesWithEviction() throws {
        var decoder = HPACKDecoder(tableSizeLimit: 256)
        let common = [["cache-control", "private"], ["date", "Mon, 21 Oct 2013 20:13:21 GMT"], ["location", "https://www.example.com"]]
        let first = try decoder.decode(Self.bytes("""
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8
            e9ae 82ae 43d3
            """)[...])
        #expect(Self.pairs(first) == [[":status", "302"]] + common && decoder.tableSize == 222)
        #expect(Self.pairs(try decoder.decode(Self.bytes("4883 640e ffc1 c0bf")[...])) == [[":status", "307"]] + common && decoder.tableSize == 222)
        let third = try decoder.decode(Self.bytes("""
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b
            3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07
            """)[...])
        #expect(Self.pairs(third) == [[":status", "200"], ["cache-control", "private"], ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
                                      ["location", "https://www.example.com"], ["content-encoding", "gzip"],
                                      ["set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"]])
        #expect(decoder.tableSize == 215)
    }

    @Test("broken blocks are refused with what is wrong, never read as fields", arguments: [
        ([0xbe], HPACKError.indexOutOfRange(62)),                                   // the dynamic table is empty
        ([0x80], .indexOutOfRange(0)),
        ([0x41, 0x05, 0x61], .truncated),                                            // a value of 5 bytes with 1 there
        ([0x41, 0x81, 0xff], .huffman("padding longer than 7 bits")),                // 8 bits of EOS's start
        ([0x41, 0x81, 0x00], .huffman("padding that is not the start of EOS")),      // '0' (5 bits) then 000
        ([0x41, 0x84, 0xff, 0xff, 0xff, 0xff], .huffman("EOS inside a string")),      // EOS is 30 ones
        ([0x3f, 0xe1, 0x1f], .tableSizeOverLimit(size: 4_096, limit: 4_096 - 1)),
        ([0x82, 0x20], .tableSizeUpdateAfterField),
        ([0x7f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], .integerTooLarge),
    ] as [([UInt8], HPACKError)])
    func refusals(_ block: [UInt8], _ error: HPACKError) {
        var decoder = HPACKDecoder(tableSizeLimit: error == .tableSizeOverLimit(size: 4_096, limit: 4_095) ? 4_095 : 4_096)
        #expect(throws: error) { try decoder.decode(block[...]) }
        #expect(!error.description.isEmpty)
    }

    @Test("the static table, every byte's Huffman code and 300 blocks of hpack's encoder read as hpack wrote them")
    func againstPythonHPACK() throws {
        let oracle = try #require(try PythonOracle.json(HTTP2Oracle.hpackScript, ["7"]) as? [String: Any])
        let table = try #require(oracle["static"] as? [[String]])
        #expect(table == HPACKStaticTable.entries.map { [$0.name, $0.value] })
        let coded = try #require(oracle["huffman"] as? [[String: String]])
        #expect(coded.count == 456)
        for pair in coded {
            let plain = Self.bytes(pair["plain"] ?? ""), code = Self.bytes(pair["coded"] ?? "")
            #expect(try HPACKHuffman.decode(code[...]) == plain, "Huffman \(pair["coded"] ?? "")")
        }
        let blocks = try #require(oracle["blocks"] as? [[String: Any]])
        var decoder = HPACKDecoder()
        for (number, block) in blocks.enumerated() {
            let fields = try decoder.decode(Self.bytes(block["block"] as? String ?? "")[...])
            let expected = (block["fields"] as? [[Any]] ?? []).map {
                HPACKHeaderField(name: $0[0] as? String ?? "", value: $0[1] as? String ?? "", neverIndexed: $0[2] as? Bool ?? false)
            }
            #expect(fields == expected, "block \(number)")
        }
        #expect(blocks.count == 300)
    }
}
