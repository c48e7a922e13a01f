import Foundation
import Shared

/// The flow inspector's service: one flow by id and its first packets from the history, one packet
/// with its record from the capture library, and a flow's captured packets for export. Every read
/// is bounded (a primary-key lookup, the flow's own rows, three short reads of a capture).
package struct FlowInspection: Sendable {
    package let store: FlowStore
    package let library: CaptureLibrary
    package let policy: HistoryPolicy
    package let localAddresses: Set<IPAddress>
    /// An inspected flow's decrypted chunks by flow id, in conversation order
    /// (`HistoryReader.plaintext(forFlow:)`); nil when this inspection reads none.
    package let decrypted: (@Sendable (Int64) async throws -> [DecryptedChunk])?
    /// Whether keeping decrypted content is on now: tells "switched off" from "expired".
    package let keepsDecryptedContent: Bool

    package init(store: FlowStore, library: CaptureLibrary, policy: HistoryPolicy = .default,
                localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses,
                decrypted: (@Sendable (Int64) async throws -> [DecryptedChunk])? = nil,
                keepsDecryptedContent: Bool = false) {
        self.store = store
        self.library = library
        self.policy = policy
        self.localAddresses = localAddresses
        self.decrypted = decrypted
        self.keepsDecryptedContent = keepsDecryptedContent
    }

    /// The flow with `id`, or `unknownFlow`.
    package func flow(id: Int64) async throws(InspectorError) -> HistoryFlow {
        let stored: StoredFlow?
        do { stored = try await store.flow(id: id) } catch { throw .history(HistoryError(error)) }
        guard let stored else { throw .history(.unknownFlow(id)) }
        return HistoryFlow(stored, localAddresses: localAddresses)
    }

    /// The inspector of flow `id`, listing at most `limit` packets (the policy's 500 by default).
    package func inspector(flowID id: Int64, limit: Int? = nil) async throws(InspectorError) -> FlowInspector {
        let flow = try await flow(id: id)
        let shown = max(0, limit ?? policy.packetsPerFlow)
        do {
            let packets = try await store.packets(forFlow: id, limit: shown)
            let count = try await store.packetCount(forFlow: id)
            return FlowInspector(flow: flow, packets: packets, storedPacketCount: count, limit: shown,
                                 decrypted: await decryptedContent(of: flow))
        } catch {
            throw .history(HistoryError(error))
        }
    }

    /// Read only for an inspected flow; a failure is said in the section, never shown as "none kept".
    func decryptedContent(of flow: HistoryFlow) async -> DecryptedContentReading? {
        guard flow.stored.tlsStatus == .inspected, let decrypted else { return nil }
        do {
            return .read(try await decrypted(flow.id), keepingIsOn: keepsDecryptedContent)
        } catch {
            return .failed("\(error)")
        }
    }

    /// Packet `number` (1-based, time order) of flow `id`, with what its capture holds.
    package func packet(flowID id: Int64, number: Int) async throws(InspectorError) -> PacketBytesPresentation {
        let flow = try await flow(id: id)
        let packet: StoredPacket?
        let first: Date?
        do {
            packet = try await store.packet(forFlow: id, at: number - 1)
            first = try await store.firstPacketDate(forFlow: id)
        } catch {
            throw .history(HistoryError(error))
        }
        guard let packet, let first else {
            let count: Int
            do { count = try await store.packetCount(forFlow: id) } catch { throw .history(HistoryError(error)) }
            throw .packetOutOfRange(number: number, flowID: id, count: count)
        }
        let row = FlowInspectorRow(packet: packet, number: number, since: first, proto: flow.stored.key.proto,
                                   version: flow.stored.key.endpointA.address.version)
        guard let location = packet.capture else {
            let captured: Int
            do { captured = try await store.packetCount(forFlow: id, capturedOnly: true) } catch {
                throw .history(HistoryError(error))
            }
            return PacketBytesPresentation(row: row, flowKey: flow.stored.key, record: nil,
                                           connectionHasCapturedPackets: captured > 0)
        }
        let record = await Result(catching: { () async throws(CaptureLibraryError) in try await library.record(at: location) })
        return PacketBytesPresentation(row: row, flowKey: flow.stored.key, record: record, connectionHasCapturedPackets: true)
    }

    /// Every packet of flow `id` the history holds, in time order.
    func allPackets(flowID id: Int64) async throws(InspectorError) -> (HistoryFlow, [StoredPacket]) {
        let flow = try await flow(id: id)
        do {
            let count = try await store.packetCount(forFlow: id)
            return (flow, try await store.packets(forFlow: id, limit: count))
        } catch {
            throw .history(HistoryError(error))
        }
    }
}

extension Result where Failure == CaptureLibraryError {
    init(catching body: () async throws(CaptureLibraryError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
