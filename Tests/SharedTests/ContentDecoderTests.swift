import Foundation
import Shared
import Testing
import TestSupport

/// Bodies coded by Python's gzip, zlib and brotli, decoded by zlib and Brotli's decoders as the
/// product calls them: whole, cut, malformed, chained, and a decompression bomb stopped.
@Suite struct ContentDecoderTests {
    @Test("gzip, zlib's deflate, a raw deflate stream, br and br over gzip each decode to the text Python coded")
    func everyCoding() throws {
        let coded = try ContentCodingOracle.codings()
        let plain = try #require(coded["plain"])
        #expect(plain.count == 200_000)
        for (name, codings) in [("gzip", [ContentCoding.gzip]), ("zlib", [.deflate]), ("rawDeflate", [.deflate]), ("br", [.br]),
                                ("gzipThenBr", [.gzip, .br])] {
            let decoded = ContentDecoder.decode(try #require(coded[name]), codings: codings)
            #expect(decoded.ending == .whole && decoded.bytes == plain, "\(name): \(decoded.ending)")
        }
    }

    @Test("a coded body cut short decodes to the start of the text and says it was cut", arguments: ["gzip", "br"])
    func cutShort(_ name: String) throws {
        let coded = try ContentCodingOracle.codings()
        let plain = try #require(coded["plain"]), whole = try #require(coded[name])
        let decoded = ContentDecoder.decode(whole.prefix(whole.count / 2), codings: [ContentCoding(rawValue: name)!])
        #expect(decoded.ending == .cut)
        #expect(!decoded.bytes.isEmpty && decoded.bytes.count < plain.count && plain.starts(with: decoded.bytes))
    }

    @Test("64 MiB of zeros in 64 KiB of gzip stops at the limit, decoded up to it and said")
    func bombStopped() throws {
        let bomb = try #require(try ContentCodingOracle.codings()["bomb"])
        #expect(bomb.count < 100_000)
        let decoded = ContentDecoder.decode(bomb, codings: [.gzip])
        #expect(decoded.ending == .stoppedAtLimit(ContentDecoder.defaultLimit))
        #expect(decoded.bytes.count == ContentDecoder.defaultLimit && decoded.bytes.allSatisfy { $0 == 0 })
    }

    @Test("bytes that break their coding's format are said malformed in the decoder's words, what came before kept")
    func malformed() throws {
        let coded = try ContentCodingOracle.codings()
        var gzip = try #require(coded["gzip"])
        gzip[gzip.startIndex + 2] = 0x07                          // compression method 7: not deflate
        if case .malformed(let reason) = ContentDecoder.decode(gzip, codings: [.gzip]).ending {
            #expect(reason == "unknown compression method")
        } else { Issue.record("a gzip header with method 7 was read") }
        if case .malformed(let reason) = ContentDecoder.decode(Data("not brotli at all".utf8), codings: [.br]).ending {
            #expect(!reason.isEmpty)
        } else { Issue.record("text was read as Brotli") }
    }

    @Test("Content-Encoding lists read in order, identity skipped, x-gzip as gzip, an unknown coding named")
    func codingLists() throws {
        #expect(try ContentCoding.list("gzip, br").get() == [.gzip, .br])
        #expect(try ContentCoding.list(" identity ").get() == [])
        #expect(try ContentCoding.list("X-GZIP").get() == [.gzip])
        #expect(ContentCoding.list("gzip, zstd") == .failure(ContentCoding.UnknownCoding(name: "zstd")))
    }
}
