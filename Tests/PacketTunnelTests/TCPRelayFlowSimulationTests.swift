import Fixtures
import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// A seeded end-to-end run (STYLE practice 14): a device uploads and downloads a random stream
/// through a path that drops, duplicates and reorders segments both ways, the shell drains the
/// server socket and fires timers at random, and the naive references — the server's byte log and
/// an in-order-only device receiver — must end holding exactly the two streams.
@Suite struct TCPRelayFlowSimulationTests {
    /// Drops 1 in 10 and all past a queue of 32 (a router's tail drop), duplicates 1 in 10, and
    /// delivers any of the eight oldest next.
    struct LossyPath<Segment> {
        var queue: [Segment] = []

        mutating func send(_ segment: Segment, using random: inout SeededRandom) {
            switch Int.random(in: 0..<10, using: &random) {
            case _ where queue.count >= 32, 0: return
            case 1: queue.append(segment); queue.append(segment)
            default: queue.append(segment)
            }
        }

        mutating func deliver(using random: inout SeededRandom) -> Segment? {
            guard !queue.isEmpty else { return nil }
            return queue.remove(at: Int.random(in: 0..<min(8, queue.count), using: &random))
        }
    }

    @Test(arguments: 0..<32 as Range<UInt64>)
    func bothStreamsArriveExactlyOnceThroughALossyReorderingPath(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        // ISNs within 30 000 of the wrap, so both sequence spaces cross it mid-stream.
        let deviceISN = SequenceNumber(UInt32.random(in: (UInt32.max - 30_000)...UInt32.max, using: &random))
        let ourISN = SequenceNumber(UInt32.random(in: (UInt32.max - 30_000)...UInt32.max, using: &random))
        let config = TCPRelayFlow.Config(maxToServerBytes: Int.random(in: 800...8000, using: &random),
                                         maxToDeviceBytes: 4000, maxOutOfOrderBytes: 3000, maxOutOfOrderSegments: 6,
                                         maxRetransmits: 1_000_000)
        var flow = RelayFixture.established(config: config, deviceISN: deviceISN, ourISN: ourISN, mss: 500)
        let upload = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) })
        let download = Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) })

        var toFlow = LossyPath<InboundSegment>()
        var toDevice = LossyPath<OutboundSegment>()
        // The device: how much of its upload the flow acknowledged (+1 for its FIN), the window
        // the flow last advertised, and what it received in order.
        var uploadAcknowledged = 0
        var flowWindow = Int(UInt16.max)
        var downloaded = Data()
        var deviceGotFin = false
        // The server side of the shell.
        var serverLog = Data()
        var undrained = 0
        var halfClosedWithLog: [Data] = []
        var downloadRead = 0
        var readsPaused = false
        var ending: TCPRelayEnding?

        func perform(_ actions: [TCPRelayAction]) {
            for action in actions {
                switch action {
                case .sendToServer(let data): serverLog.append(data); undrained += data.count
                case .closeServerSend: halfClosedWithLog.append(serverLog)
                case .segmentToDevice(let segment): toDevice.send(segment, using: &random)
                case .pauseServerReads: readsPaused = true
                case .resumeServerReads: readsPaused = false
                case .teardown(let reason): ending = reason
                case .connectToServer: Issue.record("connect asked twice")
                }
            }
        }

        func deviceSegment(from offset: Int, count: Int, fin: Bool) -> InboundSegment {
            let window: UInt16 = [0, 700, 4000, 4000, 4000, .max][Int.random(in: 0..<6, using: &random)]
            let payload = upload.subdata(in: offset..<(offset + count))
            return InboundSegment(sequence: deviceISN + 1 + offset,
                                  acknowledgment: ourISN + 1 + downloaded.count + (deviceGotFin ? 1 : 0),
                                  flags: fin ? [.ack, .fin] : .ack, window: window, payload: payload)
        }

        var steps = 0
        while ending == nil && steps < 300_000 {
            steps += 1
            switch Int.random(in: 0..<6, using: &random) {
            case 0:   // the device resends from its oldest unacknowledged byte, or sends somewhere in the
                      // window; the FIN goes with the last byte
                let acknowledged = min(uploadAcknowledged, upload.count)
                let ahead = Bool.random(using: &random) ? Int.random(in: 0..<max(1, min(flowWindow, 3000)), using: &random) : 0
                let start = min(upload.count, acknowledged + ahead)
                let count = min(upload.count - start, Int.random(in: 1...600, using: &random))
                toFlow.send(deviceSegment(from: start, count: count, fin: start + count == upload.count), using: &random)
            case 1:   // a bare ACK
                toFlow.send(deviceSegment(from: min(uploadAcknowledged, upload.count), count: 0, fin: false), using: &random)
            case 2:
                if let segment = toFlow.deliver(using: &random) { perform(flow.receiveFromDevice(segment)) }
            case 3:   // the device takes what the flow sent: in order only, and acknowledges
                guard let segment = toDevice.deliver(using: &random) else { break }
                #expect(!segment.flags.contains(.rst), "seed \(seed): reset")
                let acknowledged = segment.acknowledgment - (deviceISN + 1)
                if acknowledged > uploadAcknowledged { uploadAcknowledged = acknowledged }
                flowWindow = Int(segment.window)
                let expected = ourISN + 1 + downloaded.count
                let overlap = expected - segment.sequence
                if !deviceGotFin && overlap >= 0 && overlap <= segment.payload.count {
                    downloaded.append(segment.payload.dropFirst(overlap))
                    if segment.flags.contains(.fin) { deviceGotFin = true }
                }
                if !segment.payload.isEmpty || segment.flags.contains(.fin) {
                    toFlow.send(deviceSegment(from: min(uploadAcknowledged, upload.count), count: 0, fin: false),
                                using: &random)
                }
            case 4:   // the server sends what the allowance lets the shell read, then closes
                if downloadRead < download.count {
                    let count = min(download.count - downloadRead, flow.serverReadAllowance,
                                    Int.random(in: 1...1500, using: &random))
                    guard !readsPaused, count > 0 else { break }
                    perform(flow.receiveFromServer(download.subdata(in: downloadRead..<(downloadRead + count))))
                    downloadRead += count
                } else if downloadRead == download.count {
                    downloadRead += 1
                    perform(flow.serverDidCloseSend())
                }
            default:  // the shell drains the server socket, or a timer fires
                if undrained > 0 && Bool.random(using: &random) {
                    let count = Int.random(in: 1...undrained, using: &random)
                    undrained -= count
                    perform(flow.serverDidDrain(byteCount: count))
                } else if let timer = flow.retransmitTimer {
                    perform(flow.retransmitTimeout(generation: timer.generation))
                }
            }
        }
        #expect(ending == .completed, "seed \(seed): ended \(String(describing: ending)) after \(steps) steps")
        #expect(serverLog == upload, "seed \(seed)")
        #expect(halfClosedWithLog == [upload], "seed \(seed): one half-close, after the whole upload")
        #expect(downloaded == download && deviceGotFin, "seed \(seed)")
    }
}
