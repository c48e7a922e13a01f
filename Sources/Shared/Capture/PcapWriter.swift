import Foundation

/// `PcapFileWriter` behind an actor, for callers that are not the tunnel's event loop (tools,
/// tests, the demo capture): the same files, locations and errors, each call one hop. The event
/// loop owns a `PcapFileWriter` directly instead — a hop per packet is what it must not pay.
package actor PcapWriter {
    package typealias Config = PcapFileWriter.Config

    package static let defaultMaxFileBytes = PcapFileWriter.defaultMaxFileBytes

    private let file: PcapFileWriter

    /// Opens the first file and writes its global header. `wallClock` (ns since 1970) names files.
    package init(config: Config,
                wallClock: @escaping @Sendable () -> Int64 = { MonotonicAnchor.now().wallClockNanosecondsSince1970 })
    throws(PcapError) {
        file = try PcapFileWriter(config: config, wallClock: wallClock)
    }

    package var currentFileSequence: UInt32 { file.currentFileSequence }
    package var snaplen: UInt32 { file.snaplen }

    /// `PcapFileWriter.write(packet:originalLength:timestamp:)`.
    @discardableResult
    package func write(packet: Data, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        try file.write(packet: packet, originalLength: originalLength, timestamp: timestamp)
    }

    @discardableResult
    package func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        try file.write(bytes: bytes, originalLength: originalLength, timestamp: timestamp)
    }

    /// Closes the current file and starts the next sequence.
    package func rotate() throws(PcapError) { try file.rotate() }

    /// A new snaplen starts a new file; the same value is a no-op.
    package func setSnaplen(_ snaplen: UInt32) throws(PcapError) { try file.setSnaplen(snaplen) }

    /// Writes out what is buffered and syncs it to disk, without closing.
    package func flush() throws(PcapError) { try file.flush() }

    /// Flushes and closes. Further writes throw `.closed`.
    package func close() throws(PcapError) { try file.close() }

    /// The files this writer created, oldest first.
    package func captureFiles() -> [URL] { file.captureFiles() }
}
