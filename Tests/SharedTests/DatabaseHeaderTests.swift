import Testing
@testable import Shared

/// The header's own size against the file's: fileformat2.html §1.3 (page size at 16, change
/// counter at 24, page count at 28, version-valid-for at 92, all big-endian).
@Suite struct DatabaseHeaderTests {
    static func header(pageSize: Int, pageCount: UInt32, changeCounter: UInt32 = 7, validFor: UInt32 = 7) -> [UInt8] {
        var bytes = DatabaseFile.magic + [UInt8](repeating: 0, count: DatabaseHeader.byteCount - DatabaseFile.magic.count)
        let stored = pageSize == 65_536 ? 1 : pageSize
        bytes[16] = UInt8(stored >> 8)
        bytes[17] = UInt8(stored & 0xFF)
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        put(changeCounter, at: 24)
        put(pageCount, at: 28)
        put(validFor, at: 92)
        return bytes
    }

    @Test("a file holding every page its header counts, or more, is whole")
    func wholeFiles() {
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 3), fileSize: 12_288, walHasContent: false) == nil)
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 3), fileSize: 16_384, walHasContent: false) == nil)
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 65_536, pageCount: 1), fileSize: 65_536, walHasContent: false) == nil)
        #expect(DatabaseHeader(Self.header(pageSize: 65_536, pageCount: 1))?.pageSize == 65_536)
    }

    @Test("fewer pages than the header counts is a truncated file")
    func missingPages() {
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 3), fileSize: 8_192, walHasContent: false)
                == "truncated: its header counts 3 pages of 4096 bytes, the file holds 2")
    }

    @Test("a size that is not a whole number of pages, or shorter than the header, is truncated")
    func cutInsideAPage() {
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 3), fileSize: 10_000, walHasContent: true)
                == "truncated: 10000 bytes is not a whole number of 4096-byte pages")
        #expect(DatabaseHeader.damage(header: Array(Self.header(pageSize: 4_096, pageCount: 3).prefix(40)), fileSize: 40,
                                      walHasContent: false)
                == "truncated: 40 bytes, shorter than SQLite's 100-byte header")
    }

    @Test("a page count SQLite would not trust (stale, zero) or a WAL mid-checkpoint is not held against the size")
    func untrustedCounts() {
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 9, changeCounter: 8, validFor: 7),
                                      fileSize: 4_096, walHasContent: false) == nil)
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 0), fileSize: 4_096, walHasContent: false) == nil)
        #expect(DatabaseHeader.damage(header: Self.header(pageSize: 4_096, pageCount: 9), fileSize: 4_096, walHasContent: true) == nil)
        #expect(DatabaseHeader.damage(header: [], fileSize: 0, walHasContent: true) == nil)
    }

    @Test("a page size that is not a power of two from 512 to 65536 is damage")
    func invalidPageSizes() {
        for size in [0, 256, 1_000, 3_072] {
            #expect(DatabaseHeader.damage(header: Self.header(pageSize: size, pageCount: 1), fileSize: 4_096, walHasContent: false)
                    == "its header names no valid page size", "\(size)")
        }
    }
}
