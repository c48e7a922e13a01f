import Foundation
import PacketTunnel
import Posix
import Shared

/// One tunnel session over a data directory: the history, the live-feed ring, the capture and the
/// pipeline and runtime over them, opened in the one order every caller needs (`run`, `demo`,
/// the end-to-end tests) and closed in the spec's stop order.
package final class TunnelSession: Sendable {
    /// What the session records into.
    package let sinks: SessionSinks
    package let runtime: TunnelRuntime<TUNDevice>

    package var dataDirectory: URL { sinks.dataDirectory }
    package var store: FlowStore { sinks.store }
    package var ring: RingBufferProducer { sinks.ring }
    /// nil when capture is off for the session.
    package var capture: PcapFileWriter? { sinks.capture }
    /// Where capture or history stopped on a failure (a full disk) while the tunnel went on.
    package var recordingStops: RecordingStopLog { sinks.recordingStops }
    /// Where decrypted content is kept; nil unless the person keeps it (`plaintextPersistenceEnabled`,
    /// off by default even with inspection on): then no `.tvpt` file is ever created.
    package var plaintext: PlaintextWriter? { sinks.plaintext }
    /// Applies the retention limits at the start and on each rotation; nil when the session has none.
    package var retention: RetentionSweeper? { sinks.retention }

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
        var socketMark: UInt32?
        /// Whether each flow's program is asked of the kernel (`--no-programs` says no: the lookup
        /// costs a little on every connection opened, `tvlab bench tunnel` says how much).
        package var namesPrograms = true
        package init() {}
    }

    /// Opens every sink and the runtime over `device` (already placed in its namespace), serves
    /// the control socket, and starts the loop — relaying from `relayNamespace` when given.
    /// `onFailure` hears, once and from the loop thread, why the tunnel stopped by itself (see
    /// `TunnelRuntime.start`); `failure` keeps it. Call `stop` afterwards all the same.
    /// `recordingStopped` is told the moment capture or history stops on a failure; it is called
    /// from the loop's thread or the history writer's, and must hand the news on without waiting.
    package init(dataDirectory: URL, device: TUNDevice, options: Options, resolvers: (@Sendable () -> ResolverStatus)? = nil,
                 relayNamespace: String? = nil,
                 onFailure: (@Sendable (TunnelFailure) -> Void)? = nil,
                 recordingStopped: (@Sendable (RecordingStop) -> Void)? = nil) async throws(TunnelSessionError) {
        sinks = try await SessionSinks(dataDirectory: dataDirectory, options: options, direction: TunnelAddressDirection(),
                                       recordingStopped: recordingStopped)
        let pipeline = sinks.pipeline
        do { runtime = try TunnelRuntime(device: device, pipeline: pipeline, mtu: options.mtu, socketMark: options.socketMark) } catch {
            await sinks.abandon()
            throw .eventLoop(error)
        }
        // Each flow's program, asked in the namespace the device (and so the monitored sockets) is in.
        if options.namesPrograms { runtime.attributePrograms(namespace: device.networkNamespace()) }
        if let inspection = options.inspection {
            do {
                let factory = try TunnelInspectionSetup.factory(dataDirectory: dataDirectory, options: inspection)
                runtime.enableInspection(factory: factory, enabled: true, keepPlaintext: sinks.plaintext != nil,
                                         caReady: TunnelInspectionSetup.caReady(dataDirectory: dataDirectory))
            } catch {
                await sinks.abandon()
                throw error
            }
        }
        do {
            try runtime.serveControl(at: sinks.controlSocketPath, capture: sinks.capture,
                                     resolvers: resolvers, retention: sinks.retention)
        } catch {
            await sinks.abandon()
            throw .controlSocket(error)
        }
        do { try runtime.start(relayNamespace: relayNamespace, onFailure: onFailure) } catch {
            await sinks.abandon()
            throw .start(error)
        }
        sinks.sweepAtStart()
    }

    /// Why the tunnel stopped by itself, if it did: `run` reads it after its command ends.
    package var failure: TunnelFailure? { runtime.failure }

    /// The stop order: relay flows closed and the loop stopped (the runtime), the pipeline
    /// flushed and the history's session ended, then the capture closed and the ring unmapped.
    /// The store stays open for reading the session back.
    package func stop() async {
        await runtime.stop()
        await sinks.close()
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
    case inspection(InspectionSetupFailure)
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
