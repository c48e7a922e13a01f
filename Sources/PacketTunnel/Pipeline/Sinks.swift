import Shared

// The pipeline's four sinks. Each is called synchronously on the event loop's thread and must
// return without waiting: what cannot keep up drops and says so, it never blocks the loop.
// Class-bound because each is one shared resource (a ring, a file, a queue), not a value.

/// The live feed (ipc spec's ring). `RingBufferProducer` conforms.
package protocol LiveFeedSink: AnyObject {
    /// Publishes one packet's record; false when the reader fell behind and it was dropped.
    func publish(_ meta: PacketMeta) -> Bool
    /// Wakes the reader. Called once per batch of publishes, never per packet.
    func notifyConsumer()
}

/// The packet capture. `PcapFileWriter` conforms. Any error means the capture is unusable until
/// it is enabled again: the pipeline turns capture off and counts it.
package protocol CaptureSink: AnyObject {
    /// Appends one record and says where it landed. `timestamp` is wall-clock ns since 1970.
    func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation
    /// Hands buffered records to the kernel, so the locations already returned read back.
    func writeOut() throws(PcapError)
    /// `writeOut()` plus a sync to disk.
    func flush() throws(PcapError)
    /// Records the kernel took whole: after a failure, the ones still buffered are not among them.
    var recordsWritten: UInt64 { get }
    /// The most of each packet a record keeps (the pcap header's snaplen).
    var snaplen: UInt32 { get }
}

/// The history. `StoreWriterQueue` conforms.
package protocol FlowPersisting: AnyObject {
    /// Takes the batch for writing later; false when it cannot (its queue is full): the batch is
    /// lost and the caller counts it. Never blocks.
    func persist(_ batch: FlowStoreBatch) -> Bool
    /// What became of the batches `persist` accepted so far.
    var outcomes: PersistenceOutcomes { get }
    /// Returns once every accepted batch has been written or has failed.
    nonisolated(nonsending) func drain() async
}

/// The history writer's own counters: batches it accepted and then wrote or lost.
package struct PersistenceOutcomes: Sendable, Equatable {
    package var batchesWritten: UInt64 = 0
    package var batchesFailed: UInt64 = 0
    /// Packets in the written batches.
    package var packetsWritten: UInt64 = 0
    /// Packets in the failed batches.
    package var packetsLost: UInt64 = 0
    package var lastError: String?
    /// A batch failed because the disk was full.
    package var diskFull = false

    package init() {}
}
