import COpenSSL
import Foundation
@testable import Linux
import Testing

/// The BIO an inspected session's `SSL` reads and writes through, driven with OpenSSL's own
/// `BIO_read`/`BIO_write`: it must answer as `BIO_s_mem` does, which the sessions were built on.
@Suite("The in-memory BIO of an inspected session")
struct OpenSSLRecordStreamTests {
    /// Reads `count` bytes through OpenSSL's BIO_read, as the SSL would.
    static func read(_ stream: OpenSSLRecordStream, _ count: Int) -> (Int32, Data) {
        var buffer = [UInt8](repeating: 0, count: count)
        let result = BIO_read(stream.bio, &buffer, Int32(count))
        return (result, Data(buffer.prefix(max(0, Int(result)))))
    }

    @Test("the peer's records come out in order across calls and feeds; empty, a read asks to retry, as BIO_s_mem does")
    func readsLikeAMemoryBIO() throws {
        let stream = try OpenSSLRecordStream()
        defer { BIO_free(stream.bio) }
        let reference = try #require(BIO_new(BIO_s_mem()))
        defer { BIO_free(reference) }
        var empty = [UInt8](repeating: 0, count: 4)
        #expect(BIO_read(reference, &empty, 4) == -1 && BIO_test_flags(reference, BIO_FLAGS_SHOULD_RETRY | BIO_FLAGS_READ) != 0,
                "the reference's answer, for comparison")

        #expect(Self.read(stream, 4).0 == -1)
        #expect(BIO_test_flags(stream.bio, BIO_FLAGS_SHOULD_RETRY) != 0 && BIO_test_flags(stream.bio, BIO_FLAGS_READ) != 0)

        // A slice not starting at 0, read in pieces that do not line up with the feeds.
        let first = Data([0, 1, 2, 3, 4, 5, 6, 7])[2...]
        stream.feed(first)
        #expect(BIO_ctrl_pending(stream.bio) == 6 && stream.unreadCount == 6)
        #expect(Self.read(stream, 4) == (4, Data([2, 3, 4, 5])))
        #expect(BIO_test_flags(stream.bio, BIO_FLAGS_SHOULD_RETRY) == 0, "a read that gave bytes clears the retry flag")
        // Fed while two bytes are still unread: they come first.
        stream.feed(Data([8, 9, 10]))
        #expect(Self.read(stream, 100) == (5, Data([6, 7, 8, 9, 10])))
        #expect(Self.read(stream, 1).0 == -1)
        #expect(BIO_ctrl(stream.bio, BIO_CTRL_EOF, 0, nil) == 1, "BIO_eof")

        stream.feed(Data([11, 12]))
        stream.releaseInput(discardingUnread: false)
        #expect(stream.unreadCount == 2, "bytes not read yet are kept unless discarded")
        stream.releaseInput(discardingUnread: true)
        #expect(stream.unreadCount == 0 && Self.read(stream, 2).0 == -1)
    }

    @Test("what OpenSSL left unread of lent records is copied when the call ends: the lender's next bytes do not change it")
    func unreadLentRecordsAreCopied() throws {
        let stream = try OpenSSLRecordStream()
        defer { BIO_free(stream.bio) }
        // Larger than `Data` keeps inline (which would copy): the bytes stay the lender's.
        let lender = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { lender.deallocate() }
        lender.copyBytes(from: (0..<64).map { UInt8($0) })
        stream.feed(Data([0xFF]))
        stream.feed(Data(bytesNoCopy: lender.baseAddress!, count: 64, deallocator: .none))
        #expect(Self.read(stream, 4) == (4, Data([0xFF, 0, 1, 2])))
        stream.releaseInput(discardingUnread: false)
        lender.initializeMemory(as: UInt8.self, repeating: 0xA5)     // the device's next read
        #expect(stream.unreadCount == 61)
        #expect(Self.read(stream, 100) == (61, Data(3..<64)))
    }

    @Test("one read crosses every chunk still unread, slices among them, and empties none it did not finish")
    func aReadCrossesChunks() throws {
        let stream = try OpenSSLRecordStream()
        defer { BIO_free(stream.bio) }
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        // A record's start, its body in two more chunks, the next record's start: as socket reads
        // cut a stream of records.
        stream.feed(Data([0xFF] + bytes[0..<5])[1...])
        stream.feed(Data(bytes[5..<200]))
        stream.feed(Data([0xEE, 0xEE] + bytes[200..<250])[2...])
        stream.feed(Data())
        stream.feed(Data(bytes[250..<300]))
        #expect(stream.unreadCount == 300)
        #expect(Self.read(stream, 5) == (5, Data(bytes[0..<5])))
        #expect(Self.read(stream, 240) == (240, Data(bytes[5..<245])))
        #expect(stream.unreadCount == 55 && BIO_ctrl_pending(stream.bio) == 55)
        #expect(Self.read(stream, 1_000) == (55, Data(bytes[245..<300])))
        #expect(stream.unreadCount == 0 && Self.read(stream, 1).0 == -1)
    }

    @Test("OpenSSL's writes are taken whole and handed out once, in order, with the room reserved or not")
    func writesAreTakenWhole() throws {
        let stream = try OpenSSLRecordStream()
        defer { BIO_free(stream.bio) }
        #expect(stream.takeOutput().isEmpty)
        let records = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        stream.reserveOutput(100)
        #expect(BIO_write(stream.bio, records, 30_000) == 30_000)
        #expect(BIO_write(stream.bio, Array(records[30_000...]), 10_000) == 10_000)
        #expect(BIO_ctrl_wpending(stream.bio) == 0, "nothing waits on OpenSSL's side of it")
        #expect(BIO_ctrl(stream.bio, BIO_CTRL_FLUSH, 0, nil) == 1, "BIO_flush")
        #expect(stream.takeOutput() == Data(records))
        #expect(stream.takeOutput().isEmpty, "handed out once")
        #expect(BIO_write(stream.bio, [UInt8]([1, 2, 3]), 3) == 3)
        let small = stream.takeOutput()
        #expect(small == Data([1, 2, 3]), "\(Array(small))")
    }
}
