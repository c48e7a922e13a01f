import Foundation

/// The `.tvpt` framing of decrypted content (spec-notes/plaintext.md): a 16-byte global header
/// once per file, then per chunk a 32-byte record header and the stored bytes. Little-endian,
/// byte-deterministic; the one truth for the writer, the library and the fuzz target.
///
///   global header: 0 magic "TVPT" · 4 major (1) · 6 minor (0) · 8 max_record_bytes · 12 reserved (0)
///   record header: 0 magic "TVPR" · 4 stream · 12 timestamp (signed ns since 1970) · 20 stored_length
///                  · 24 original_length · 28 direction · 29 padding (3 × 0)
///
/// Not `.pcap`: a decrypted chunk is a slice of a stream, not a datagram.
package enum PlaintextFormat {
    package static let globalHeaderLength = 16
    package static let recordHeaderLength = 32
    static let fileMagic: UInt32 = 0x5456_5054
    static let recordMagic: UInt32 = 0x5456_5052
    static let versionMajor: UInt16 = 1
    static let versionMinor: UInt16 = 0
    /// The writer's per-record ceiling unless told otherwise.
    package static let defaultMaxRecordBytes: UInt32 = 64 << 10

    /// The five ways bytes are not a `.tvpt` header.
    package enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        case shortData(expected: Int, actual: Int)
        case foreignMagic(UInt32)
        case unsupportedMajorVersion(UInt16)
        /// The offset does not start a record (an offset inside the global header, or bytes that
        /// are not a record header).
        case notARecordStart(offset: UInt64)
        case unknownDirection(UInt8)

        package var description: String {
            switch self {
            case let .shortData(expected, actual): "a decrypted-content header needs \(expected) bytes, found \(actual)"
            case let .foreignMagic(magic): "not a decrypted-content file (it begins 0x\(String(magic, radix: 16)))"
            case let .unsupportedMajorVersion(major):
                "a decrypted-content file of format version \(major), which this program (version \(versionMajor)) does not read"
            case let .notARecordStart(offset): "offset \(offset) does not start a decrypted-content record"
            case let .unknownDirection(raw): "a decrypted-content record with unknown direction \(raw)"
            }
        }
    }

    package struct GlobalHeader: Sendable, Hashable {
        package var maxRecordBytes: UInt32
        var versionMinor: UInt16

        package init(maxRecordBytes: UInt32, versionMinor: UInt16 = PlaintextFormat.versionMinor) {
            self.maxRecordBytes = maxRecordBytes
            self.versionMinor = versionMinor
        }

        package init(parsing bytes: UnsafeRawBufferPointer) throws(FormatError) {
            guard bytes.count >= globalHeaderLength else { throw .shortData(expected: globalHeaderLength, actual: bytes.count) }
            let magic = bytes.littleEndian(UInt32.self, at: 0)
            guard magic == fileMagic else { throw .foreignMagic(magic) }
            let major = bytes.littleEndian(UInt16.self, at: 4)
            guard major == versionMajor else { throw .unsupportedMajorVersion(major) }
            versionMinor = bytes.littleEndian(UInt16.self, at: 6)
            maxRecordBytes = bytes.littleEndian(UInt32.self, at: 8)
        }

        package func emit(into output: UnsafeMutableRawBufferPointer) {
            precondition(output.count >= globalHeaderLength)
            output.storeLittleEndian(fileMagic, at: 0)
            output.storeLittleEndian(versionMajor, at: 4)
            output.storeLittleEndian(versionMinor, at: 6)
            output.storeLittleEndian(maxRecordBytes, at: 8)
            output.storeLittleEndian(UInt32(0), at: 12)
        }

        package var bytes: [UInt8] {
            var out = [UInt8](repeating: 0, count: globalHeaderLength)
            out.withUnsafeMutableBytes { emit(into: $0) }
            return out
        }
    }

    package struct RecordHeader: Sendable, Hashable {
        package var stream: UInt64
        /// Signed nanoseconds since 1970 (absolute; an instant before 1970 is kept, not clamped).
        package var timestamp: Int64
        package var storedLength: UInt32
        package var originalLength: UInt32
        package var direction: Direction

        package init(stream: UInt64, timestamp: Int64, storedLength: UInt32, originalLength: UInt32, direction: Direction) {
            self.stream = stream
            self.timestamp = timestamp
            self.storedLength = storedLength
            self.originalLength = originalLength
            self.direction = direction
        }

        /// Parses the 32 bytes at `offset` of a file (the offset only names it in the error).
        package init(parsing bytes: UnsafeRawBufferPointer, offset: UInt64) throws(FormatError) {
            guard offset >= UInt64(globalHeaderLength) else { throw .notARecordStart(offset: offset) }
            guard bytes.count >= recordHeaderLength else { throw .shortData(expected: recordHeaderLength, actual: bytes.count) }
            guard bytes.littleEndian(UInt32.self, at: 0) == recordMagic else { throw .notARecordStart(offset: offset) }
            let raw = bytes[28]
            guard let direction = Direction(rawValue: raw) else { throw .unknownDirection(raw) }
            stream = bytes.littleEndian(UInt64.self, at: 4)
            timestamp = Int64(bitPattern: bytes.littleEndian(UInt64.self, at: 12))
            storedLength = bytes.littleEndian(UInt32.self, at: 20)
            originalLength = bytes.littleEndian(UInt32.self, at: 24)
            self.direction = direction
        }

        package var isTruncated: Bool { storedLength < originalLength }

        package func emit(into output: UnsafeMutableRawBufferPointer) {
            precondition(output.count >= recordHeaderLength)
            output.storeLittleEndian(recordMagic, at: 0)
            output.storeLittleEndian(stream, at: 4)
            output.storeLittleEndian(UInt64(bitPattern: timestamp), at: 12)
            output.storeLittleEndian(storedLength, at: 20)
            output.storeLittleEndian(originalLength, at: 24)
            output[28] = direction.rawValue
            output[29] = 0
            output[30] = 0
            output[31] = 0
        }

        package var bytes: [UInt8] {
            var out = [UInt8](repeating: 0, count: recordHeaderLength)
            out.withUnsafeMutableBytes { emit(into: $0) }
            return out
        }
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func littleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

extension UnsafeMutableRawBufferPointer {
    fileprivate func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }
}

extension PlaintextFormat.GlobalHeader {
    /// `init(parsing:)` over bytes read into a `Data`.
    package init(parsing data: Data) throws(PlaintextFormat.FormatError) {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(PlaintextFormat.FormatError) in try Self(parsing: raw) }
        }
        self = try result.get()
    }
}

extension PlaintextFormat.RecordHeader {
    /// `init(parsing:offset:)` over bytes read into a `Data`.
    package init(parsing data: Data, offset: UInt64) throws(PlaintextFormat.FormatError) {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(PlaintextFormat.FormatError) in try Self(parsing: raw, offset: offset) }
        }
        self = try result.get()
    }
}
