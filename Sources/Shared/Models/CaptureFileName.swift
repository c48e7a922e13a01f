#if canImport(Glibc)
import Glibc
#endif

/// The name of a capture file: `tunnelvision-<seq>-<yyyyMMdd-HHmmss>.pcap`, the sequence
/// zero-padded to six digits so alphabetical order is chronological, the time in UTC.
/// The sequence is the file's identity (`CaptureLocation.fileSequence`); the time is for people.
package enum CaptureFileName {
    static let shape = SequencedFileName(prefix: "tunnelvision-", fileExtension: ".pcap")
    package static var prefix: String { shape.prefix }
    static var fileExtension: String { shape.fileExtension }
    static var sequenceDigits: Int { SequencedFileName.sequenceDigits }

    package static func make(sequence: UInt32, nanosecondsSince1970: Int64) -> String {
        shape.make(sequence: sequence, nanosecondsSince1970: nanosecondsSince1970)
    }
    package static func sequence(in name: String) -> UInt32? { shape.sequence(in: name) }
    package static func startSecondsSince1970(in name: String) -> Int64? { shape.startSecondsSince1970(in: name) }
}

/// `<prefix><seq 6 digits>-<yyyyMMdd-HHmmss><extension>`: the shape both the capture files and
/// the decrypted-content files (`PlaintextFileName`) are named in.
struct SequencedFileName: Sendable {
    let prefix: String
    let fileExtension: String
    static let sequenceDigits = 6

    init(prefix: String, fileExtension: String) {
        self.prefix = prefix
        self.fileExtension = fileExtension
    }

    /// The name for `sequence` started at `nanosecondsSince1970` (UTC; instants before 1970 clamp).
    func make(sequence: UInt32, nanosecondsSince1970: Int64) -> String {
        var writer = ASCIIWriter(capacity: 48)
        writer.append(prefix)
        writer.appendDecimal(sequence, width: Self.sequenceDigits)
        writer.append(UInt8(ascii: "-"))
        Self.appendTime(secondsSince1970: nanosecondsSince1970 / 1_000_000_000, to: &writer)
        writer.append(fileExtension)
        return writer.string
    }

    /// `yyyyMMdd-HHmmss` of a second since 1970, in UTC (before 1970 clamps): the time in the
    /// names of our files, captures and exports alike.
    static func appendTime(secondsSince1970: Int64, to writer: inout ASCIIWriter) {
        var seconds = time_t(max(0, secondsSince1970))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        writer.appendDecimal(Int(parts.tm_year) + 1900, width: 4)
        writer.appendDecimal(Int(parts.tm_mon) + 1, width: 2)
        writer.appendDecimal(Int(parts.tm_mday), width: 2)
        writer.append(UInt8(ascii: "-"))
        writer.appendDecimal(Int(parts.tm_hour), width: 2)
        writer.appendDecimal(Int(parts.tm_min), width: 2)
        writer.appendDecimal(Int(parts.tm_sec), width: 2)
    }

    /// The sequence a capture file name carries, or nil when the name is not one of ours.
    func sequence(in name: String) -> UInt32? {
        guard let parts = parts(of: name) else { return nil }
        return UInt32(parts[0])
    }

    /// When the writer started the file, as its name says (UTC, whole seconds since 1970); nil
    /// when the name is not one of ours or its time is not a real instant (a month 13).
    func startSecondsSince1970(in name: String) -> Int64? {
        guard let parts = parts(of: name), let day = Int32(parts[1]), let clock = Int32(parts[2]) else { return nil }
        var fields = tm()
        fields.tm_year = day / 10_000 - 1900
        fields.tm_mon = day / 100 % 100 - 1
        fields.tm_mday = day % 100
        fields.tm_hour = clock / 10_000
        fields.tm_min = clock / 100 % 100
        fields.tm_sec = clock % 100
        let wanted = (fields.tm_year, fields.tm_mon, fields.tm_mday, fields.tm_hour, fields.tm_min, fields.tm_sec)
        var seconds = timegm(&fields)
        // timegm normalises a month 13 into the next year: only a time that reads back is real.
        var back = tm()
        gmtime_r(&seconds, &back)
        guard (back.tm_year, back.tm_mon, back.tm_mday, back.tm_hour, back.tm_min, back.tm_sec) == wanted else { return nil }
        return Int64(seconds)
    }

    /// The name's sequence, day and time digits, or nil when the name is not one of ours.
    private func parts(of name: String) -> [Substring]? {
        guard name.hasPrefix(prefix), name.hasSuffix(fileExtension) else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(fileExtension.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= Self.sequenceDigits,
              parts[1].count == 8, parts[2].count == 6,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return parts
    }
}
