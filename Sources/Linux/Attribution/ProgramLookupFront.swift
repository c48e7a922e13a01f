import PacketTunnel
import Shared

/// The loop's side of naming each flow's program. Handing every opened flow to
/// `ProgramAttributor`'s queue cost a wake and a sleep of its thread per connection — measured
/// on a 2-core VM, about 30 µs of CPU taken from the relay's loop for each, more than the lookup
/// itself (`tvlab bench tunnel`: routed connections/s 78 % of those without the lookup). So the
/// loop answers the common case itself, after the batch of packets that opened the flows has been
/// forwarded: the kernel says the socket is gone, or the program that opened the last connection
/// holds it where it held that one (a sock_diag exchange and a few `readlinkat`,
/// `SocketOwnerLookup.quickAttribution`). Anything that needs a search of /proc, and the flows of
/// a batch past `quickBudget`, go to the queue as before; what it finds is remembered here, so that
/// program's next connection is answered quickly.
///
/// What it costs, and what did not lower it (2-core VM, a routed service, `tvlab net crr`, fresh
/// services in interleaved pairs): a quick lookup is five system calls — the sock_diag request and
/// answer, the descriptor's link, `comm`, `exe` — 8 µs in a tight C loop but ~23 µs on the relay's
/// loop, whose caches a connection's ~200 µs of relaying has just filled; connections/s fall by
/// ~10–15 %. Doing the lookups in the loop's idle moments instead (before it polls again), a
/// thread that polls for flows, or the loop sending the request and a thread reading the answer
/// were no cheaper or worse, and the last two lost most short connections' names (their sockets
/// gone before the thread got to them).
///
/// Owned by the loop's thread.
package final class ProgramLookupFront {
    /// Quick lookups per batch of packets at most: what the next batch can wait for them
    /// (a few µs each).
    package static let quickBudget = 8

    private struct Opened {
        let key: FlowKey
        let local: IPEndpoint
        let remote: IPEndpoint
        let firstSeen: UInt64
    }

    private let attributor: ProgramAttributor
    /// The loop's own lookup in the target's namespace; nil when it could not be made (every flow
    /// goes to the queue, which says why).
    private let quick: SocketOwnerLookup?
    private var opened: [Opened] = []

    /// As `ProgramAttributor.init`: takes the namespace's descriptor and closes it when done.
    package init(namespace: Result<Int32, LinkStatisticsError>, procRoot: String = "/proc",
                 wake: @escaping @Sendable () -> Void) {
        if case .success(let descriptor) = namespace {
            quick = try? SocketOwnerLookup(namespaceDescriptor: descriptor, procRoot: procRoot)
        } else {
            quick = nil
        }
        attributor = ProgramAttributor(namespace: namespace, procRoot: procRoot, wake: wake)
    }

    /// A flow opened, while its packet is being recorded: asked once the batch is done.
    package func flowOpened(_ key: FlowKey, local: IPEndpoint, remote: IPEndpoint, firstSeen: UInt64) {
        opened.append(Opened(key: key, local: local, remote: remote, firstSeen: firstSeen))
    }

    /// After a batch of packets: the quick answers for the flows it opened, to record now; the
    /// others are handed to the queue (`takeAnswers` brings theirs).
    package func answerOpened() -> [ProgramAttributor.Answer] {
        guard !opened.isEmpty else { return [] }
        var answers: [ProgramAttributor.Answer] = []
        for (index, flow) in opened.enumerated() {
            let lookup = SocketDiagMessage.Lookup(proto: flow.key.proto, local: flow.local, remote: flow.remote)
            if index < Self.quickBudget, let attribution = quick?.quickAttribution(of: lookup) {
                answers.append(ProgramAttributor.Answer(key: flow.key, attribution: attribution, firstSeen: flow.firstSeen, asked: false))
            } else {
                attributor.flowOpened(flow.key, local: flow.local, remote: flow.remote, firstSeen: flow.firstSeen)
            }
        }
        opened.removeAll(keepingCapacity: opened.count <= Self.quickBudget)
        return answers
    }

    /// The quick answers after a batch (`answerOpened`), into `pipeline`'s flows: the loop calls
    /// it once the batch's packets are recorded, never inside a packet's recording.
    func recordOpened(into pipeline: PacketPipeline) { Self.record(answerOpened(), into: pipeline) }

    /// The queue's answers (`takeAnswers`), into `pipeline`'s flows, after its `wake`.
    func recordQueued(into pipeline: PacketPipeline) { Self.record(takeAnswers(), into: pipeline) }

    private static func record(_ answers: [ProgramAttributor.Answer], into pipeline: PacketPipeline) {
        for answer in answers { pipeline.observeProgram(answer.attribution, for: answer.key, firstSeen: answer.firstSeen) }
    }

    /// The queue's answers waiting (after its `wake`), the holders it found remembered.
    package func takeAnswers() -> [ProgramAttributor.Answer] {
        let answers = attributor.takeAnswers()
        if let quick { for holder in answers.lazy.compactMap(\.holder) { quick.remember(holder) } }
        return answers
    }
}
