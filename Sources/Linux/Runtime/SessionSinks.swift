import Foundation
import PacketTunnel
import Posix
import Shared

/// What a monitoring session records into — the live-feed ring, the history, the capture, the
/// retention sweeper, decrypted content — and the pipeline over them, opened in the one order
/// every session needs, whatever feeds it: a TUN's relay (`TunnelSession`) or a passive
/// interface (`PassiveSession`). Closed after the runtime stopped, in the spec's stop order.
///
/// `@unchecked Sendable`: every stored property is a `let`; `pipeline` and `capture`, which are not
/// `Sendable`, are set up here and then used only on the runtime's loop thread until it has stopped.
package final class SessionSinks: @unchecked Sendable {
    package let dataDirectory: URL
    package let store: FlowStore
    package let ring: RingBufferProducer
    /// nil when capture is off for the session.
    package let capture: PcapFileWriter?
    /// Where capture or history stopped on a failure (a full disk) while the session went on.
    package let recordingStops: RecordingStopLog
    /// Where decrypted content is kept; nil unless the person keeps it.
    package let plaintext: PlaintextWriter?
    /// Applies the retention limits at the start and on each rotation; nil when the session has none.
    package let retention: RetentionSweeper?
    package let pipeline: PacketPipeline
    /// The capture file the session opened first, read before the loop owns the writer: what the
    /// first retention pass must spare.
    private let firstCaptureSequence: UInt32?
    /// The session's clock: what dates its records.
    package let anchor: MonotonicAnchor

    /// `recordingStopped` is told the moment capture or history stops on a failure; it is called
    /// from the loop's thread or the history writer's, and must hand the news on without waiting.
    package init(dataDirectory: URL, options: TunnelSession.Options, direction: any PacketDirectionRule,
                 recordingStopped: (@Sendable (RecordingStop) -> Void)?) async throws(TunnelSessionError) {
        self.dataDirectory = dataDirectory
        let recordingStops = RecordingStopLog(tell: recordingStopped)
        self.recordingStops = recordingStops
        let anchor = MonotonicAnchor.now()
        self.anchor = anchor
        // The ring first: its space is reserved whole or refused, and a refusal (a full disk)
        // leaves no history file behind.
        do { ring = try RingBufferProducer(dataDirectory: dataDirectory) } catch {
            if case .ringInUse = error { throw .busy(dataDirectory.path) }
            throw .ring(error)
        }
        let store: FlowStore
        do { store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor, origin: options.origin) } catch {
            ring.close()
            throw .store(error)
        }
        self.store = store
        let retention = options.retention.map { RetentionSweeper(dataDirectory: dataDirectory, settings: $0) }
        self.retention = retention
        if options.captureEnabled {
            let highest = try? await store.highestCaptureFileSequence()
            var config = PcapFileWriter.Config(directory: DataDirectoryLayout.captures(in: dataDirectory),
                                               snaplen: options.captureDetail.snaplen, highestReferencedSequence: highest ?? nil)
            // Room is made for each capture file before it opens, so none takes the captures over the size limit.
            if let retention { config.beforeOpening = { sequence in retention.makeRoom(opening: sequence) } }
            do {
                capture = try PcapFileWriter(config: config)
            } catch {
                await store.close()
                ring.close()
                throw .capture(error)
            }
        } else {
            capture = nil
        }
        firstCaptureSequence = capture?.currentFileSequence
        let history = StoreWriterQueue(store: store, path: DataDirectoryLayout.database(in: dataDirectory).path,
                                       recordingStopped: recordingStops.record)
        pipeline = PacketPipeline(direction: direction, liveFeed: ring, capture: capture, store: history,
                                  config: .init(captureEnabled: options.captureEnabled, anchor: anchor))
        pipeline.recordingStopped = recordingStops.record
        plaintext = options.plaintextPersistenceEnabled
            ? await Self.plaintextWriter(dataDirectory: dataDirectory, store: store) : nil
        if let plaintext {
            pipeline.plaintextSink = plaintext
            pipeline.plaintextFileChanged = { [retention] sequence in retention?.sweepPlaintext(openSequence: sequence) }
        }
    }

    /// The writer over `<data-dir>/plaintext`, starting above what the index references. It opens
    /// no file until content comes.
    private static func plaintextWriter(dataDirectory: URL, store: FlowStore) async -> PlaintextWriter {
        let sequence = try? await store.highestPlaintextFileSequence()
        let stream = try? await store.highestPlaintextStream()
        return PlaintextWriter(config: .init(directory: DataDirectoryLayout.plaintext(in: dataDirectory),
                                             highestReferencedSequence: sequence ?? nil,
                                             highestReferencedStream: stream ?? nil))
    }

    /// The control socket's path for this directory.
    package var controlSocketPath: String { DataDirectoryLayout.controlSocket(in: dataDirectory).path }

    /// Once the runtime runs: retention's first pass, sparing the session's first file (the writer
    /// is the loop thread's by now, so its current file is not asked here).
    func sweepAtStart() {
        retention?.sweep(recordingSequence: firstCaptureSequence)
        // Decrypted content expires even when this session keeps none; nothing is open yet.
        retention?.sweepPlaintext(openSequence: nil)
    }

    /// A start that failed after the sinks opened: everything they opened is closed — the capture
    /// flushed, decrypted content's file, the history (its session dated), the ring — as `close`
    /// does, less retention's last pass (no session ran to sweep after).
    package func abandon() async {
        try? capture?.close()
        try? plaintext?.close()
        await store.close()
        ring.close()
    }

    /// After the runtime stopped and flushed the pipeline: retention's last pass, the history's
    /// session ended, the capture closed and the ring unmapped. The store stays open for reading.
    package func close() async {
        await retention?.finish()
        try? await store.endSession()
        try? capture?.close()
        try? plaintext?.close()
        ring.close()
    }
}
