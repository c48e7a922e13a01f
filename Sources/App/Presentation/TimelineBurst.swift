import Foundation
import Shared

/// A burst of the timeline's flows (`TimelineBursts` decides which), summed as its one row says
/// it: how many, to what, how close together they started, what they moved — and every id, so a
/// person can still open each one.
package struct TimelineBurst: Sendable, Equatable {
    /// The burst's flows, in the listing's order.
    package let flows: [HistoryFlow]

    init(flows: [HistoryFlow]) {
        precondition(!flows.isEmpty, "a burst holds flows")
        self.flows = flows
    }

    /// A page's flows as the listing shows them: each one alone, or a burst as one piece.
    package enum Piece: Sendable, Equatable {
        case flow(HistoryFlow)
        case burst(TimelineBurst)
    }

    /// `flows` (newest first, as a page has them) cut into pieces, in order.
    package static func pieces(of flows: [HistoryFlow]) -> [Piece] {
        TimelineBursts.stretches(of: flows.map(row)).map { stretch in
            switch stretch {
            case let .single(index): .flow(flows[index])
            case let .burst(range): .burst(TimelineBurst(flows: Array(flows[range])))
            }
        }
    }

    /// The bursts of `flows`, in order.
    package static func bursts(of flows: [HistoryFlow]) -> [TimelineBurst] {
        pieces(of: flows).compactMap { if case let .burst(burst) = $0 { burst } else { nil } }
    }

    static func row(_ flow: HistoryFlow) -> TimelineBursts.Row {
        TimelineBursts.Row(likeness: flow.displayHost.map {
            TimelineBursts.Likeness(host: $0, port: flow.remotePort, proto: flow.stored.key.proto, status: flow.stored.tlsStatus)
        }, started: flow.stored.firstSeen)
    }

    package var first: HistoryFlow { flows[0] }
    package var count: Int { flows.count }
    package var ids: [Int64] { flows.map(\.id) }
    package var firstSeen: Date { flows.map(\.stored.firstSeen).min()! }
    package var lastSeen: Date { flows.map(\.stored.lastSeen).max()! }
    /// From the first start to the last: "started within 0.4 s".
    var startSpread: TimeInterval { flows.map(\.stored.firstSeen).max()!.timeIntervalSince(firstSeen) }
    package var bytesIn: UInt64 { flows.reduce(0) { $0 + $1.stored.bytesIn } }
    package var bytesOut: UInt64 { flows.reduce(0) { $0 + $1.stored.bytesOut } }
    package var packets: UInt64 { flows.reduce(0) { $0 + $1.stored.packetCount } }

    /// The host and port the burst went to: `files.demo.test:8080`.
    package var destination: String {
        let host = first.displayHost ?? "?"
        return first.remotePort.map { "\(host):\($0)" } ?? host
    }

    /// "50 connections to files.demo.test:8080 started within 0.4 s, 1.2 MiB received, 80.0 KiB sent".
    package var sentence: String {
        "\(count) connections to \(destination) started within \(HistoryFlowWording.duration(startSpread)), "
            + "\(ByteCountText.binary(bytesIn)) received, \(ByteCountText.binary(bytesOut)) sent"
    }

    /// The ids as ranges of consecutive numbers: `12–61`, or `12–30, 32–61, 70`.
    var idRanges: String { Self.ranges(ids) }

    static func ranges(_ ids: [Int64]) -> String {
        var parts: [String] = []
        var sorted = ids.sorted()[...]
        while let low = sorted.popFirst() {
            var high = low
            while sorted.first == high + 1 { high = sorted.removeFirst() }
            parts.append(high == low ? "\(low)" : "\(low)–\(high)")
        }
        return parts.joined(separator: ", ")
    }

    /// The burst as `flows --json` lists it beside the flows (which it does not replace).
    func write(to out: inout JSONWriter) {
        out.beginObject()
        out.numbers("ids", ids.map { Int($0) })
        out.number("count", count)
        out.string("host", first.displayHost)
        out.string("nameSource", first.nameSource?.rawValue)
        out.string("nameSourceText", first.nameSourceText)
        out.number("port", first.remotePort.map(Int.init))
        out.string("protocol", HistoryFlowWording.protocolIdentifier(first.stored.key.proto))
        out.string("tlsStatus", HistoryFlowWording.statusIdentifier(first.stored.tlsStatus))
        HistoryFlowWording.write("firstSeen", firstSeen, to: &out)
        HistoryFlowWording.write("lastSeen", lastSeen, to: &out)
        out.number("startedWithinSeconds", startSpread, decimals: 6)
        out.number("bytesIn", bytesIn)
        out.number("bytesOut", bytesOut)
        out.number("packets", packets)
        out.string("program", ProgramWording.cell(flows.map(\.stored.program)))
        out.string("summary", sentence)
        out.endObject()
    }
}
