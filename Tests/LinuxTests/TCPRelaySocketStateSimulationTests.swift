import Fixtures
import Foundation
import Posix
import Testing
@testable import Linux

/// Thousands of random orderings of the relay's calls and the kernel's answers, driven the way
/// the shell drives the state, against the naive reference: what the kernel took is a prefix of
/// what the relay gave, and the relay heard exactly that.
@Suite("A relayed TCP leg under random kernel answers")
struct TCPRelaySocketStateRandomTests {
    typealias State = TCPRelaySocketState

    struct Run {
        var state = State()
        var random: SeededRandom
        var given = Data()
        var taken = Data()
        var drained = 0
        var reports: [State.Report] = []
        var shutdowns = 0
        var takenAtShutdown: Int?
        var registered = false
        var closed = false

        init(seed: UInt64) { random = SeededRandom(seed: seed) }

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        mutating func perform(_ actions: State.Actions) {
            switch actions.watch {
            case .register?: #expect(!registered); registered = true
            case .modify?: #expect(registered)
            case .unregister?: #expect(registered); registered = false
            case nil: break
            }
            if actions.close { closed = true; registered = false }
            // As the shell: a socket closed by an earlier step is not called.
            if actions.shutdownWrite, !closed {
                shutdowns += 1
                takenAtShutdown = taken.count
            }
            if actions.finishConnect, !closed {
                let refusal = SocketError(.connect, errno: ECONNREFUSED)
                let answer: ConnectResult = chance(5) ? .failed(refusal) : chance(30) ? .inProgress : .connected
                perform(state.connectFinished(answer))
            }
            if actions.write, !closed, !state.pending.isEmpty {
                let answer: IOResult
                if chance(3) { answer = .failed(ECONNRESET) }
                else if chance(25) { answer = .wouldBlock }
                else {
                    let count = Int.random(in: 1...state.pending.count, using: &random)
                    taken.append(state.pending.prefix(count))
                    answer = .processed(count)
                }
                perform(state.wrote(answer))
            }
            if actions.read, !closed, state.mayRead {
                let answer: ReceiveResult = chance(2) ? .failed(ECONNRESET) : chance(5) ? .endOfStream
                    : chance(50) ? .wouldBlock : .received(Int.random(in: 1...100, using: &random))
                perform(state.received(answer))
            }
            if let report = actions.report {
                reports.append(report)
                if case .drained(let count) = report { drained += count }
            }
        }

        mutating func step() {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let count = Int.random(in: 1...50, using: &random)
                let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: given.count + $0) })
                if !state.shutdownRequested && state.phase != .closed { given.append(bytes) }
                perform(state.enqueue(bytes))
            case 4: if chance(20) { perform(state.requestShutdown()) }
            case 5: perform(state.setReading(chance(70)))
            default:
                guard let watching = state.watching else { return }
                var readiness = EventLoop.Readiness(rawValue: watching.rawValue)
                if chance(3) { readiness.insert(.error) }
                perform(state.ready(readiness))
            }
        }
    }

    @Test("the kernel takes a prefix of the relay's bytes, each drained once; failed at most once and last; the FIN once, after the last byte")
    func randomOrderings() {
        for seed in UInt64(1)...2_000 {
            var run = Run(seed: seed)
            let first: ConnectResult = run.chance(50) ? .connected : .inProgress
            run.perform(run.state.started(first))
            for _ in 0..<200 { run.step() }
            // Let every queued byte go, unless the leg failed.
            while run.state.phase == .connected && !run.state.pending.isEmpty {
                let rest = run.state.pending
                run.taken.append(rest)
                run.perform(run.state.wrote(.processed(rest.count)))
            }
            let failures = run.reports.filter { $0 == .failed }.count
            #expect(failures <= 1, "seed \(seed)")
            if failures == 1 { #expect(run.reports.last == .failed, "seed \(seed): nothing after failed") }
            #expect(run.given.prefix(run.taken.count) == run.taken, "seed \(seed)")
            #expect(run.drained == run.taken.count, "seed \(seed)")
            #expect(run.shutdowns <= 1, "seed \(seed)")
            if let at = run.takenAtShutdown { #expect(at == run.given.count, "seed \(seed): the FIN followed the last byte") }
            if run.state.phase == .connected { #expect(run.taken == run.given, "seed \(seed)") }
            #expect(!run.closed || run.state.phase == .closed, "seed \(seed)")
        }
    }
}
