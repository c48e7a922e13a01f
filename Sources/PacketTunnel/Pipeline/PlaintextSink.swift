import Foundation
import Shared

/// Where an inspected flow's decrypted chunks are kept. `PlaintextWriter` conforms. Synchronous,
/// unlike the spec's async sink: the relay hands chunks over on the tunnel's one event-loop thread
/// (PacketPipeline's note), and the writer only buffers and, at 64 KiB, writes once. Any error
/// means keeping decrypted content is over for the session: the pipeline stops and counts it.
package protocol PlaintextSink: AnyObject {
    /// A new conversation id, one per inspected flow.
    func openStream() -> UInt64
    /// Appends one record of `plaintext`, which carried `originalLength` bytes, at absolute
    /// `timestamp` (ns since 1970); nil when nothing was stored.
    func write(_ plaintext: Data, originalLength: Int?, stream: UInt64, direction: Direction,
               timestamp: Int64) throws(PlaintextWriteError) -> PlaintextLocation?
    /// Hands buffered records to the kernel, so the locations already returned read back.
    func writeOut() throws(PlaintextWriteError)
    /// `writeOut()` plus a sync to disk.
    func flush() throws(PlaintextWriteError)
    /// The file being written, nil while none is open: the sweep spares it.
    var currentFileSequence: UInt32? { get }
    /// The per-record cap: a chunk longer than this is stored cut to it.
    var maxRecordBytes: UInt32 { get }
}

extension PlaintextWriter: PlaintextSink {
    package var maxRecordBytes: UInt32 { config.maxRecordBytes }
}
