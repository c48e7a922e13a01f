import Foundation
import PacketTunnel
import Posix
import Shared

/// One tunnel session over a data directory: the history, the live-feed ring, the capture and the
/// pipeline and runtime over them, opened in the one order every caller needs (`run`, `demo`,
/// the end-to-end tests) and closed in the spec's stop order.
package final class TunnelSession: @unchecked Sendable {
    package let dataDirectory: URL
    package let store: FlowStore
    package let ring: RingBufferProducer
    /// nil when capture is off for the session.
    package let capture: PcapFileWriter?
    package let runtime: TunnelRuntime<TUNDevice>
    /// Where capture or history stopped on a failure (a full disk) while the tunnel went on.
    package let recordingStops: RecordingStopLog
    /// Where decrypted content is kept; nil unless the person keeps it (`plaintextPersistenceEnabled`,
    /// off by default even with inspection on): then no `.tvpt` file is ever created.
    package let plaintext: PlaintextWriter?
    /// Applies the retention limits at the start and on each rotation; nil when the session has none.
    package let retention: RetentionSweeper?

    package struct Options: Sendable {
        package var captureEnabled = true
        package var captureDetail = CaptureDetail.fullPayload
        package var mtu = TunnelAddressing.mtu
        /// What started the session, as the history's `sessions` row records it.
        package var origin = FlowStore.unnamedOrigin
        /// The limits the session enforces (the settings' `retention`); nil sweeps nothing — for
        /// settings that could not be read, whose limits are not guessed.
        package var retention: RetentionSettings?
        /// `run --inspect`'s options; nil: no TLS inspection in this session.
        package var inspection: InspectionRunOptions?
        /// The settings' `plaintextPersistenceEnabled`: keep inspected flows' decrypted content.
        package var plaintextPersistenceEnabled = false
        /// What every relay socket carries (SO_MARK): a routed target's `RoutedPlan.mark`; nil for `run`.
        package var socketMark: UInt32?
        package init() {}
    }

    /// Opens every sink and the runtime over `device` (already placed in its namespace), serves
    /// the control socket, and starts the loop — relaying from `relayNamespace` when given.
    /// `onFailure` hears, once and from the loop thread, why the tunnel stopped by itself (see
    /// `TunnelRuntime.start`); `failure` keeps it. Call `stop` afterwards all the same.
    /// `recordingStopped` is told the moment capture or history stops on a failure; it is called
    /// from the loop's thread or the history writer's, and must hand the news on without waiting.
    package init(dataDirectory: URL, device: TUNDevice, options: Options, resolvers: ResolverStatus? = nil,
                 relayNamespace: String? = nil,
                 onFailure: (@Sendable (TunnelFailure) -> Void)? = nil,
                 recordingStopped: (@Sendable (RecordingStop) -> Void)? = nil) async throws(TunnelSessionError) {
        self.dataDirectory = dataDirectory
        let recordingStops = RecordingStopLog(tell: recordingStopped)
        self.recordingStops = recordingStops
        let anchor = MonotonicAnchor.now()
        // The ring first: its space is reserved whole or refused, and a refusal (a full disk)
        // leaves no history file behind.
        do { ring = try RingBufferProducer(dataDirectory: dataDirectory) } catch {
            if case .ringInUse = error { throw .busy(dataDirectory.path) }
            throw .ring(error)
        }
        do { store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor, origin: options.origin) } catch {
            ring.close()
            throw .store(error)
        }
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
                ring.close()
                throw .capture(error)
            }
        } else {
            capture = nil
        }
        let history = StoreWriterQueue(store: store, path: DataDirectoryLayout.database(in: dataDirectory).path,
                                       recordingStopped: recordingStops.record)
        let pipeline = PacketPipeline(liveFeed: ring, capture: capture, store: history,
                                      config: .init(captureEnabled: options.captureEnabled, anchor: anchor))
        pipeline.recordingStopped = recordingStops.record
        plaintext = options.plaintextPersistenceEnabled
            ? await Self.plaintextWriter(dataDirectory: dataDirectory, store: store) : nil
        if let plaintext {
            pipeline.plaintextSink = plaintext
            pipeline.plaintextFileChanged = { [retention] sequence in retention?.sweepPlaintext(openSequence: sequence) }
        }
        do { runtime = try TunnelRuntime(device: device, pipeline: pipeline, mtu: options.mtu, socketMark: options.socketMark) } catch {
            ring.close()
            throw .eventLoop(error)
        }
        // Each flow's program, asked in the namespace the device (and so the monitored sockets) is in.
        runtime.attributePrograms(namespace: device.networkNamespace())
        if let inspection = options.inspection {
            do {
                let factory = try TunnelInspectionSetup.factory(dataDirectory: dataDirectory, options: inspection)
                runtime.enableInspection(factory: factory, enabled: true, keepPlaintext: plaintext != nil,
                                         caReady: TunnelInspectionSetup.caReady(dataDirectory: dataDirectory))
            } catch {
                ring.close()
                throw error
            }
        }
        do {
            try runtime.serveControl(at: DataDirectoryLayout.controlSocket(in: dataDirectory).path, capture: capture,
                                     resolvers: resolvers, retention: retention)
        } catch {
            ring.close()
            throw .controlSocket(error)
        }
        do { try runtime.start(relayNamespace: relayNamespace, onFailure: onFailure) } catch {
            ring.close()
            throw .start(error)
        }
        // The first pass, once the session's own file is open (it is the one being recorded).
        retention?.sweep(recordingSequence: capture?.currentFileSequence)
        // Decrypted content expires even when this session keeps none; nothing is open yet.
        retention?.sweepPlaintext(openSequence: nil)
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

    /// Why the tunnel stopped by itself, if it did: `run` reads it after its command ends.
    package var failure: TunnelFailure? { runtime.failure }

    /// The stop order: relay flows closed and the loop stopped (the runtime), the pipeline
    /// flushed and the history's session ended, then the capture closed and the ring unmapped.
    /// The store stays open for reading the session back.
    package func stop() async {
        await runtime.stop()
        await retention?.finish()
        try? await store.endSession()
        try? capture?.close()
        try? plaintext?.close()
        ring.close()
    }
}

/// Why a tunnel session could not be opened. Each case carries its component's typed error, whose
/// own comment says what the person can do.
package enum TunnelSessionError: Error, CustomStringConvertible {
    /// The history could not be opened (a full disk, a lock, another program's file…): act on
    /// the store error, or give the session another `--data-dir`.
    case store(StoreError)
    /// The live-feed ring could not be made in the data directory: act on the IPC error.
    case ring(IPCError)
    /// Another tunnel feeds this data directory's ring: stop it, or give this one its own `--data-dir`.
    case busy(String)
    /// The capture file could not be opened (a full disk, permissions): act on the capture
    /// error, or start with capture off.
    case capture(PcapError)
    /// The event loop could not be made: almost always the open-file limit (raise `ulimit -n`).
    case eventLoop(EventLoopError)
    /// `run --inspect` could not be armed (no CA, an unreadable key, a key log that cannot be written).
    case inspection(String)
    /// The control socket could not be served: a path too long for a socket name (choose a
    /// shorter `--data-dir`), or a bind or listen the system refused (the error names the call
    /// and errno: a directory not writable, a socket file another tunnel still serves).
    case controlSocket(ControlSocketError)
    /// The loop could not start (the device could not be watched, the relay's namespace could
    /// not be joined): act on the runtime error.
    case start(TunnelRuntimeError)

    package var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .ring(let error): "\(error)"
        case .busy(let path): "another tunnel is running on \(path); give this one its own --data-dir"
        case .capture(let error): "\(error)"
        case .eventLoop(let error): "\(error)"
        case .inspection(let problem): "TLS inspection: \(problem)"
        case .controlSocket(let error): "cannot serve the control socket: \(error)"
        case .start(let error): "\(error)"
        }
    }
}
