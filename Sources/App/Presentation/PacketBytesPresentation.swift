import Foundation
import Shared

/// The packet screen's decisions (screens.md, Packet detail): what the history knows of one
/// packet, and whether the capture's record there may be drawn as its bytes. Every packet gets a
/// screen; the bytes are drawn only when the record's original length equals the stored packet's
/// (and, when its headers read, it belongs to this connection) — anything else is a reason, said.
package struct PacketBytesPresentation: Sendable {
    package let row: FlowInspectorRow
    package let flowKey: FlowKey
    package let content: Content

    package enum Content: Sendable, Equatable {
        /// The record is this packet: its bytes (all of them, or the first ones when `cutBySnaplen`).
        case drawn(CaptureRecord)
        case notDrawn(Absence)
    }

    /// Why no bytes are drawn, each said apart.
    package enum Absence: Sendable, Equatable {
        /// The capture file was deleted: the connection stays, the bytes are gone. No retry.
        case captureDeleted(fileSequence: UInt32)
        /// The packet was never written to a capture.
        case neverCaptured(NeverCaptured)
        /// The record could not be read (the reason). Worth a retry once the cause is fixed.
        case unreadable(String)
        /// The record there is another packet: its original length (or its connection) differs.
        case mismatch(recordLength: UInt32, storedLength: UInt32, otherConnection: Bool)
    }

    /// Which of the ways a packet goes uncaptured can be told from the history.
    package enum NeverCaptured: Sendable, Equatable {
        /// No packet of this connection was captured: capture was off while it was recorded.
        case captureOff
        /// Others of this connection were: the capture stopped or failed part-way.
        case captureStopped
    }

    /// `record` is the library's answer for the packet's location (nil when it has none);
    /// `connectionHasCapturedPackets` says whether any packet of the flow has a location.
    package init(row: FlowInspectorRow, flowKey: FlowKey, record: Result<CaptureRecord, CaptureLibraryError>?,
                connectionHasCapturedPackets: Bool) {
        self.row = row
        self.flowKey = flowKey
        let packet = row.packet
        guard let record else {
            content = .notDrawn(.neverCaptured(connectionHasCapturedPackets ? .captureStopped : .captureOff))
            return
        }
        switch record {
        case let .failure(.notFound(sequence)): content = .notDrawn(.captureDeleted(fileSequence: sequence))
        case let .failure(error): content = .notDrawn(.unreadable(error.description))
        case let .success(found):
            let otherConnection = Self.readsAsOtherConnection(found, flowKey: flowKey)
            if found.originalLength != packet.length || otherConnection {
                content = .notDrawn(.mismatch(recordLength: found.originalLength, storedLength: packet.length,
                                              otherConnection: otherConnection))
            } else {
                content = .drawn(found)
            }
        }
    }

    /// The record's headers read, and name another 5-tuple than the connection's.
    static func readsAsOtherConnection(_ record: CaptureRecord, flowKey: FlowKey) -> Bool {
        let parsed = record.bytes.withUnsafeBytes { bytes in
            try? PacketParser.parse(bytes, originalLength: Int(record.originalLength))
        }
        guard let parsed, parsed.ip.fragment?.isFirst ?? true else { return false }
        return parsed.flowKey != flowKey
    }

    /// The drawn record, if any.
    package var record: CaptureRecord? {
        if case let .drawn(record) = content { return record }
        return nil
    }

    /// Only a genuine read failure is worth trying again; a deleted file or another packet's
    /// record will read the same every time.
    package var offersRetry: Bool {
        if case .notDrawn(.unreadable) = content { return true }
        return false
    }

    /// What the screen says instead of, or beside, the bytes.
    package var note: String? {
        switch content {
        case let .drawn(record) where record.isTruncated:
            "the capture kept the first \(record.capturedLength) of \(record.originalLength) bytes (its snaplen; "
                + "'--capture-detail full' keeps whole packets)"
        case .drawn: nil
        case let .notDrawn(absence): Self.text(absence)
        }
    }

    package static func text(_ absence: Absence) -> String {
        switch absence {
        case let .captureDeleted(sequence):
            "capture \(sequence) was deleted: the connection stays in the history, the bytes are gone"
        case .neverCaptured(.captureOff):
            "not captured: capture was off while this connection was recorded (no packet of it was captured)"
        case .neverCaptured(.captureStopped):
            "not captured: other packets of this connection were, so the capture stopped or failed part-way"
        case let .unreadable(reason): "the bytes cannot be read: \(reason); try again once that is fixed"
        case let .mismatch(recordLength, storedLength, otherConnection):
            "the record there is not this packet (" + (otherConnection ? "it belongs to another connection"
                : "it measured \(recordLength) bytes, this packet \(storedLength)") + "): the capture file was replaced or damaged"
        }
    }

    /// The stable identifier of a reason in JSON.
    package static func name(_ absence: Absence) -> String {
        switch absence {
        case .captureDeleted: "captureDeleted"
        case .neverCaptured(.captureOff): "captureOff"
        case .neverCaptured(.captureStopped): "captureStopped"
        case .unreadable: "unreadable"
        case .mismatch: "mismatch"
        }
    }
}
