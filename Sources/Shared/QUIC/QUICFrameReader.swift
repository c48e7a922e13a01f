import Foundation

/// Walks the decrypted payload of an Initial and yields its CRYPTO frames, skipping what
/// else an Initial may carry (RFC 9000 §12.4, §19):
///
///   0x00          PADDING                        (runs of zeros skipped at once)
///   0x01          PING
///   0x02 / 0x03   ACK: largest (i) · delay (i) · range count (i) · first range (i) ·
///                 count × (gap (i) · length (i)) · [0x03: ECT0 (i) · ECT1 (i) · ECN-CE (i)]
///   0x06          CRYPTO: offset (i) · length (i) · data          → yielded
///   0x1c          CONNECTION_CLOSE: error code (i) · …            → `connectionClose`
///   anything else                                                 → `notAllowedInInitial`
///
/// Bounded by the payload: every field read is checked against its end, so a lying length or
/// range count fails as `truncated` after at most one pass over the bytes. Once it throws, it
/// throws the same error on every later call.
package struct QUICFrameReader: Sendable {
    /// A CRYPTO frame: where its bytes sit in the crypto stream, and the bytes (a slice of the
    /// payload, sharing its storage and indices).
    package struct CryptoFrame: Sendable, Hashable {
        package let offset: UInt64
        package let data: Data
    }

    package let payload: Data
    /// Where the next frame starts (an index of `payload`); after a throw, where the frame that
    /// failed starts.
    package private(set) var position: Data.Index
    private var failure: QUICFrameError?

    package init(payload: Data) {
        self.payload = payload
        self.position = payload.startIndex
    }

    /// The next CRYPTO frame, nil at the end of the payload.
    package mutating func next() throws(QUICFrameError) -> CryptoFrame? {
        if let failure { throw failure }
        let payload = self.payload
        var offset = position - payload.startIndex
        let result = payload.withUnsafeBytes { bytes in
            Result { () throws(QUICFrameError) in try Self.nextCrypto(in: bytes, at: &offset) }
        }
        position = payload.startIndex + offset
        switch result {
        case let .success(found?):
            let start = payload.startIndex + found.dataStart
            return CryptoFrame(offset: found.offset, data: payload[start..<(start + found.length)])
        case .success(nil):
            return nil
        case let .failure(error):
            failure = error
            throw error
        }
    }

    /// Where a CRYPTO frame's data lies in the payload (offsets from its first byte).
    struct Located {
        let offset: UInt64
        let dataStart: Int
        let length: Int
    }

    /// Skips frames from `offset` until past the next CRYPTO frame, which it returns; nil at the
    /// end. `offset` only ever moves past whole frames: on a throw it is where the bad one starts.
    static func nextCrypto(in bytes: UnsafeRawBufferPointer, at offset: inout Int) throws(QUICFrameError) -> Located? {
        while offset < bytes.count {
            let frameStart = offset
            var cursor = offset
            // Every type allowed here is below 0x40, a single byte; a wider varint never is.
            let first = bytes[cursor]
            guard first < 0x40 else {
                guard let wide = QUICVarint.read(from: bytes, at: &cursor) else { throw .truncated(offset: frameStart) }
                if wide < 0x40 { throw .nonMinimalFrameType(wide) }
                throw .notAllowedInInitial(frameType: wide)
            }
            cursor += 1
            switch first {
            case 0x00:
                while cursor < bytes.count, bytes[cursor] == 0 { cursor += 1 }
            case 0x01:
                break
            case 0x02, 0x03:
                try skipACK(in: bytes, at: &cursor, withECN: first == 0x03, frameStart: frameStart)
            case 0x06:
                guard let streamOffset = QUICVarint.read(from: bytes, at: &cursor),
                      let length = QUICVarint.read(from: bytes, at: &cursor),
                      length <= UInt64(bytes.count - cursor)
                else { throw .truncated(offset: frameStart) }
                guard streamOffset + length <= QUICVarint.maximum else { throw .cryptoOffsetTooLarge }
                offset = cursor + Int(length)
                return Located(offset: streamOffset, dataStart: cursor, length: Int(length))
            case 0x1c:
                guard let code = QUICVarint.read(from: bytes, at: &cursor) else { throw .truncated(offset: frameStart) }
                throw .connectionClose(errorCode: code)
            default:
                throw .notAllowedInInitial(frameType: UInt64(first))
            }
            offset = cursor
        }
        return nil
    }

    /// Skips an ACK frame's fields after its type (RFC 9000 §19.3). Each range costs at least two
    /// bytes, so a lying range count runs out of payload rather than looping.
    private static func skipACK(in bytes: UnsafeRawBufferPointer, at offset: inout Int, withECN: Bool,
                                frameStart: Int) throws(QUICFrameError) {
        var cursor = offset
        func skip(_ count: UInt64) throws(QUICFrameError) {
            var remaining = count
            while remaining > 0 {
                guard QUICVarint.read(from: bytes, at: &cursor) != nil else { throw .truncated(offset: frameStart) }
                remaining -= 1
            }
        }
        // Largest Acknowledged, ACK Delay.
        try skip(2)
        guard let rangeCount = QUICVarint.read(from: bytes, at: &cursor) else { throw .truncated(offset: frameStart) }
        // First ACK Range.
        try skip(1)
        // Gap and ACK Range Length per range; checked against what is left before looping.
        guard rangeCount <= UInt64(bytes.count - cursor) / 2 else { throw .truncated(offset: frameStart) }
        try skip(2 * rangeCount)
        if withECN { try skip(3) }
        offset = cursor
    }
}
