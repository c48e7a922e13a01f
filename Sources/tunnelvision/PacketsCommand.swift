#if canImport(Glibc)
import Glibc
#endif
import App
import Shared

/// `tunnelvision packets FILE [--json]`: the shell around `PacketListing` — open, map, unwrap the
/// link layer, parse, print. Returns the exit status.
enum PacketsCommand {
    static func run(path: String, json: Bool) -> Int32 {
        let reader: PcapFileReader
        do {
            reader = try PcapFileReader(path: path, accepting: .anyLinkLayer)
        } catch {
            printError("tunnelvision: \(path): \(error)")
            return 1
        }
        var output = StandardOutput()
        var listing = PacketListing(nanosecondTimestamps: reader.format.hasSubMicrosecondTimestamps)
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1 && !output.isTerminal)
        var damage: (error: PcapReadError, index: Int)?
        var document = JSONWriter(capacity: 1 << 17)
        if json { listing.appendJSONOpening(file: path, format: reader.format, to: &document) }
        do throws(PcapFileReadError<StandardOutput.OutputError>) {
            try reader.forEachRecord { (record) throws(StandardOutput.OutputError) in
                let result = record.linkLayer?.datagram(in: record.bytes).map { datagram in
                    let linkHeader = record.bytes.count - datagram.count
                    return Result { () throws(PacketParseError) in
                        try PacketParser.parse(datagram, originalLength: record.originalLength - linkHeader)
                    }
                }
                let entry = PacketListing.Entry(index: record.index, nanosecondsSince1970: record.nanosecondsSince1970,
                                                capturedLength: record.bytes.count, originalLength: record.originalLength,
                                                result: result, linkType: record.linkType)
                if json {
                    listing.appendJSONElement(entry, to: &document)
                    try output.take(&document)
                } else {
                    listing.appendText(entry, to: &output.writer)
                }
                try output.flushIfFull()
                if record.index & 0xFFFF == 0 { progress.show(records: record.index) }
                if output.pipeClosed { throw StandardOutput.OutputError(errno: EPIPE) }
            }
        } catch {
            switch error {
            case let .corrupt(readError, index): damage = (readError, index)
            case let .stopped(outputError):
                progress.clear()
                if outputError.errno == EPIPE { return 0 }
                printError("tunnelvision: \(outputError)")
                return 1
            }
        }
        progress.clear()
        if json {
            listing.appendJSONClosing(damage: damage.map { (recordIndex: $0.index, message: $0.error.description) },
                                      to: &document)
            do { try output.take(&document, whole: true) } catch {
                printError("tunnelvision: \(error)")
                return 1
            }
        }
        do { try output.flush() } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        if !json {
            printError(listing.summary)
        }
        if let damage {
            printError("tunnelvision: \(path): damaged at record \(damage.index + 1): \(damage.error)")
            return 1
        }
        return 0
    }
}

/// A self-erasing progress line on standard error, shown only where a person watches it.
struct ProgressLine {
    let enabled: Bool

    func show(records: Int) {
        guard enabled, records > 0 else { return }
        printRaw("\r\(records) records…")
    }

    func clear() {
        guard enabled else { return }
        printRaw("\r\u{1B}[K")
    }

    private func printRaw(_ text: String) {
        FileDescriptor.writeAll(STDERR_FILENO, text: text)
    }
}
