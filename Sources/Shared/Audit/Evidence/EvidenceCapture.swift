import Foundation

/// What `capture.pcapng` holds and lacks, counted apart — never a packet skipped silently — and
/// `capture.json`, which says so (audit.md § Evidence bundle):
///
///   {"file":"capture.pcapng","fileFormat":"pcapng",
///    "flows":{"count","withPacketsWritten","withoutPacketsWrittenIDs":[ids]},"linkType":101,"notes":[…],
///    "packets":{"recorded","withoutBytes":{"captureFileMissing","notCaptured","recordUnreadable"},"written"},
///    "snaplen",
///    "sourceFiles":{"missing":[{"packets","sequence"}],"read":[{"file","packetsWritten","recordsUnreadable","sequence"}],
///                   "unreadable":[{"file","packets","reason","sequence"}]},
///    "writtenOutsideSession":{"afterEnd","beforeStart"}}
///
/// `recorded` is the sum of `written` and the three `withoutBytes` counts.
package struct EvidenceCapture: Sendable, Hashable {
    /// The file's size and SHA-256, as the sink took it.
    package let byteCount: UInt64
    package let sha256: [UInt8]
    /// The IDB's: the largest snaplen of the source files read, 0 when none was.
    package let snaplen: UInt32
    package let written: Int
    /// Recorded without their bytes: capture off or stopped.
    package let notCaptured: Int
    /// In capture files no longer there.
    package let captureFileMissing: Int
    /// In a file that could not be read, or a record that could not be read or was another packet.
    package let recordUnreadable: Int
    /// Packets written from before the session's start or after its end: a tagged flow keeps its
    /// packets from either side.
    package let writtenBeforeStart: Int
    package let writtenAfterEnd: Int
    package let readFiles: [ReadFile]
    package let missingFiles: [MissingFile]
    package let unreadableFiles: [UnreadableFile]
    package let flowCount: Int
    /// The flows of the bundle none of whose packets is in the capture, ascending.
    package let flowsWithoutPacketsWritten: [Int64]

    package struct ReadFile: Sendable, Hashable {
        package let sequence: UInt32
        package let name: String
        package let packetsWritten: Int
        package let recordsUnreadable: Int
    }

    package struct MissingFile: Sendable, Hashable {
        package let sequence: UInt32
        package let packets: Int
    }

    package struct UnreadableFile: Sendable, Hashable {
        package let sequence: UInt32
        package let name: String
        package let packets: Int
        /// `notARegularFile`, `cannotBeRead`, `notRawIP` (a link type the capture does not carry) or
        /// `notAClassicPcap` (the header is short or foreign).
        package let reason: String
    }

    /// Every packet the history recorded for the bundle's flows.
    package var recorded: Int { written + notCaptured + captureFileMissing + recordUnreadable }

    /// `manifest.json`'s entry for the capture.
    package var manifestEntry: EvidenceManifest.Entry {
        EvidenceManifest.Entry(name: EvidenceBundleFormat.captureFile, byteCount: byteCount, sha256: X509Digest.lowercaseHex(sha256))
    }

    /// What the notes say, in this order, each only when it applies.
    var notes: [String] {
        var notes = [
            "Packets are in capture order: the session's capture files by sequence, each file's records by offset.",
            "Each packet's comment names its flow (flows.json) and that flow's findings (findings.json); epb_flags give its "
                + "direction as seen from the monitored machine (01 inbound, 10 outbound).",
            "The interface's snaplen is the largest of the source files' (0 when no file was read); a packet whose captured "
                + "length is below its original length was cut by the snaplen it was captured with.",
        ]
        if notCaptured > 0 {
            notes.append("\(notCaptured) packets were recorded while their bytes were not captured (capture off or stopped): counted, not written.")
        }
        if captureFileMissing > 0 {
            notes.append("\(captureFileMissing) packets were in capture files that are no longer there: counted, not written.")
        }
        if recordUnreadable > 0 {
            notes.append("\(recordUnreadable) packets' records could not be read, or were not the packet the history recorded: "
                + "counted, not written.")
        }
        if writtenBeforeStart + writtenAfterEnd > 0 {
            notes.append("\(writtenBeforeStart + writtenAfterEnd) packets written fall before the session's start or after its end: "
                + "they belong to connections the session saw, which carried on across its edges.")
        }
        return notes
    }

    /// `capture.json`'s bytes.
    package var json: [UInt8] {
        var out = JSONWriter(capacity: 2048 + flowsWithoutPacketsWritten.count * 8)
        out.beginObject()
        out.string("file", EvidenceBundleFormat.captureFile)
        out.string("fileFormat", "pcapng")
        out.beginObject("flows")
        out.number("count", flowCount)
        out.number("withPacketsWritten", flowCount - flowsWithoutPacketsWritten.count)
        EvidenceJSON.ids(&out, "withoutPacketsWrittenIDs", flowsWithoutPacketsWritten)
        out.endObject()
        out.number("linkType", Int(PcapFormat.linkTypeRaw))
        out.strings("notes", notes)
        out.beginObject("packets")
        out.number("recorded", recorded)
        out.beginObject("withoutBytes")
        out.number("captureFileMissing", captureFileMissing)
        out.number("notCaptured", notCaptured)
        out.number("recordUnreadable", recordUnreadable)
        out.endObject()
        out.number("written", written)
        out.endObject()
        out.number("snaplen", Int(snaplen))
        out.beginObject("sourceFiles")
        out.beginArray("missing")
        for file in missingFiles {
            out.beginObject()
            out.number("packets", file.packets)
            out.number("sequence", Int(file.sequence))
            out.endObject()
        }
        out.endArray()
        out.beginArray("read")
        for file in readFiles {
            out.beginObject()
            out.string("file", file.name)
            out.number("packetsWritten", file.packetsWritten)
            out.number("recordsUnreadable", file.recordsUnreadable)
            out.number("sequence", Int(file.sequence))
            out.endObject()
        }
        out.endArray()
        out.beginArray("unreadable")
        for file in unreadableFiles {
            out.beginObject()
            out.string("file", file.name)
            out.number("packets", file.packets)
            out.string("reason", file.reason)
            out.number("sequence", Int(file.sequence))
            out.endObject()
        }
        out.endArray()
        out.endObject()
        out.beginObject("writtenOutsideSession")
        out.number("afterEnd", writtenAfterEnd)
        out.number("beforeStart", writtenBeforeStart)
        out.endObject()
        out.endObject()
        return EvidenceJSON.finish(&out)
    }
}
