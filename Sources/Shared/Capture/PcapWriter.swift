import Foundation

/// `PcapFileWriter` behind an actor, for callers that are not the tunnel's event loop (tools,
/// tests, the demo capture): the same files, locations and errors, each call one hop. The event
/// loop owns a `PcapFileWriter` directly instead — a hop per packet is what it must not pay.
public actor PcapWriter {
    public typealias Config = PcapFileWriter.Config

    public static let defaultMaxFileBytes = PcapFileWriter.defaultMaxFileBytes

    private let file: PcapFileWriter

    /// Opens the first file and writes its global header. `wallClock` (ns since 1970) names files.
    public init(config: Config,
                wallClock: @escaping @Sendable () -> Int64 = { MonotonicAnchor.now().wallClockNanosecondsSince1970 })
    throws(PcapError) {
        file = try PcapFileWriter(config: config, wallClock: wallClock)
    }

    public var currentFileSequence: UInt32 { file.currentFileSequence }
    public var snaplen: UInt32 { file.snaplen }

    /// `PcapFileWriter.write(packet:originalLength:timestamp:)`.
    @discardableResult
    public func write(packet: Data, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        try file.write(packet: packet, originalLength: originalLength, timestamp: timestamp)
    }

    @discardableResult
    public func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        try file.write(bytes: bytes, originalLength: originalLength, timestamp: timestamp)
    }

    /// Closes the current file and starts the next sequence.
    public func rotate() throws(PcapError) { try file.rotate() }

    /// A new snaplen starts a new file; the same value is a no-op.
    public func setSnaplen(_ snaplen: UInt32) throws(PcapError) { try file.setSnaplen(snaplen) }

    /// Writes out what is buffered and syncs it to disk, without closing.
    public func flush() throws(PcapError) { try file.flush() }

    /// Flushes and closes. Further writes throw `.closed`.
    public func close() throws(PcapError) { try file.close() }

    /// The files this writer created, oldest first.
    public func captureFiles() -> [URL] { file.captureFiles() }
}
