import Foundation
import PacketTunnel
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

    package struct Options: Sendable {
        package var captureEnabled = true
        package var captureDetail = CaptureDetail.fullPayload
        package var mtu = TunnelAddressing.mtu
        package init() {}
    }

    /// Opens every sink and the runtime over `device` (already placed in its namespace), serves
    /// the control socket, and starts the loop — relaying from `relayNamespace` when given.
    package init(dataDirectory: URL, device: TUNDevice, options: Options, resolvers: ResolverStatus? = nil,
                 relayNamespace: String? = nil) async throws(TunnelSessionError) {
        self.dataDirectory = dataDirectory
        let anchor = MonotonicAnchor.now()
        do { store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor) } catch { throw .store(error) }
        do { ring = try RingBufferProducer(dataDirectory: dataDirectory) } catch {
            if case .ringInUse = error { throw .busy(dataDirectory.path) }
            throw .ring(error)
        }
        if options.captureEnabled {
            let highest = try? await store.highestCaptureFileSequence()
            do {
                capture = try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: dataDirectory),
                                                           snaplen: options.captureDetail.snaplen,
                                                           highestReferencedSequence: highest ?? nil))
            } catch {
                ring.close()
                throw .capture(error)
            }
        } else {
            capture = nil
        }
        let pipeline = PacketPipeline(liveFeed: ring, capture: capture, store: StoreWriterQueue(store: store),
                                      config: .init(captureEnabled: options.captureEnabled, anchor: anchor))
        do {
            runtime = try TunnelRuntime(device: device, pipeline: pipeline, mtu: options.mtu)
            try runtime.serveControl(at: DataDirectoryLayout.controlSocket(in: dataDirectory).path, capture: capture,
                                     resolvers: resolvers)
            try runtime.start(relayNamespace: relayNamespace)
        } catch {
            ring.close()
            throw .runtime("\(error)")
        }
    }

    /// The stop order: relay flows closed and the loop stopped (the runtime), the pipeline
    /// flushed, then the capture closed and the ring unmapped.
    package func stop() async {
        await runtime.stop()
        try? capture?.close()
        ring.close()
    }
}

/// Why a tunnel session could not be opened.
package enum TunnelSessionError: Error, CustomStringConvertible {
    case store(StoreError)
    case ring(IPCError)
    /// Another tunnel feeds this data directory's ring.
    case busy(String)
    case capture(PcapError)
    case runtime(String)

    package var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .ring(let error): "\(error)"
        case .busy(let path): "another tunnel is running on \(path); give this one its own --data-dir"
        case .capture(let error): "\(error)"
        case .runtime(let reason): reason
        }
    }
}
