import Foundation
import PacketTunnel
import Shared

/// One passive session over a data directory: the sinks every session records into, fed by an
/// interface's packet ring (`PassiveRuntime`) rather than a tunnel.
final class PassiveSession: Sendable {
    let sinks: SessionSinks
    let runtime: PassiveRuntime

    /// Opens the sinks and starts reading `ring`. `onFailure` hears, once and from the loop thread,
    /// why monitoring stopped by itself; call `stop` afterwards all the same.
    init(dataDirectory: URL, ring: PacketRing, options: TunnelSession.Options,
                 onFailure: (@Sendable (TunnelFailure) -> Void)? = nil,
                 recordingStopped: (@Sendable (RecordingStop) -> Void)? = nil) async throws(TunnelSessionError) {
        let direction = LocalAddressDirection(addresses: LocalAddresses.current() ?? [])
        sinks = try await SessionSinks(dataDirectory: dataDirectory, options: options, direction: direction,
                                       recordingStopped: recordingStopped)
        do { runtime = try PassiveRuntime(ring: ring, pipeline: sinks.pipeline, direction: direction, anchor: sinks.anchor) } catch {
            await sinks.abandon()
            throw .eventLoop(error)
        }
        if options.namesPrograms { runtime.attributePrograms() }
        do { try runtime.serveControl(at: sinks.controlSocketPath, capture: sinks.capture, retention: sinks.retention) } catch {
            await sinks.abandon()
            throw .controlSocket(error)
        }
        do { try runtime.start(onFailure: onFailure) } catch {
            await sinks.abandon()
            throw .start(.loop(error))
        }
        sinks.sweepAtStart()
    }

    var failure: TunnelFailure? { runtime.failure }

    /// The loop stopped and the pipeline flushed, then the sinks closed.
    func stop() async {
        await runtime.stop()
        await sinks.close()
    }
}
