#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Shared
import Synchronization

/// Asks, off the packet path, which program opened each flow (DESIGN.md § What is monitored):
/// the loop hands it each flow its own quick look could not name (`ProgramLookupFront`), a queue
/// of its own asks the kernel and /proc (`SocketOwnerLookup`), and the answers wait for the
/// loop, which is woken once for however many arrived meanwhile (`wake`, then `takeAnswers`).
///
/// Batched both ways, because a burst of connections is when the cost shows (`tvlab bench
/// tunnel` measures it): the loop only appends a question, and wakes the queue only when it is
/// idle; the queue answers every question waiting, then posts the answers at once. So a burst
/// costs a wake or two, not two per connection.
///
/// Bounded: past `backlogLimit` questions waiting, a flow is answered at once as unavailable and
/// says why, rather than queueing without end behind a flood of connections.
package final class ProgramAttributor: Sendable {
    package static let backlogLimit = 4_096

    package struct Answer: Sendable {
        package let key: FlowKey
        package let attribution: ProgramAttribution
        /// The lifetime asked about (`PacketPipeline.observeProgram`).
        package let firstSeen: UInt64
        /// Whether it came through the queue (and so counts against the backlog).
        let asked: Bool
        /// The process found holding the socket, for the loop's quick lookup to try first next.
        var holder: SocketOwnerLookup.Holder?

        init(key: FlowKey, attribution: ProgramAttribution, firstSeen: UInt64, asked: Bool, holder: SocketOwnerLookup.Holder? = nil) {
            (self.key, self.attribution, self.firstSeen, self.asked, self.holder) = (key, attribution, firstSeen, asked, holder)
        }
    }

    private struct Question: Sendable {
        let key: FlowKey
        let lookup: SocketDiagMessage.Lookup
        let firstSeen: UInt64
    }

    /// The questions not yet taken by the queue, and whether the queue has been told to take them.
    private struct Pending {
        var questions: [Question] = []
        var draining = false
        /// Questions admitted whose answers the loop has not taken (the backlog).
        var waiting = 0
    }

    private let queue = DispatchQueue(label: "tunnelvision.attribution")
    private let wake: @Sendable () -> Void
    private let pending = Mutex(Pending())
    private let answers = Mutex<[Answer]>([])
    /// The queue's own: the lookup, made on first use, and the namespace it is made in (owned).
    private let lookup = Mutex<Result<SocketOwnerLookup, SocketDiagMessage.Failure>?>(nil)
    /// The target's network namespace (owned), or why it could not be found.
    private let namespace: Result<Int32, LinkStatisticsError>
    private let procRoot: String

    /// Takes the descriptor of the target's network namespace and closes it when done; when the
    /// namespace could not be found, every flow is answered `unavailable` with the reason.
    /// `wake` is called from any thread when answers start waiting: it must get the loop to call
    /// `takeAnswers`, and not wait.
    package init(namespace: Result<Int32, LinkStatisticsError>, procRoot: String = "/proc",
                 wake: @escaping @Sendable () -> Void) {
        self.namespace = namespace
        self.procRoot = procRoot
        self.wake = wake
    }

    deinit { if case .success(let descriptor) = namespace { close(descriptor) } }

    /// A flow opened (the loop's thread): ask about its socket.
    package func flowOpened(_ key: FlowKey, local: IPEndpoint, remote: IPEndpoint, firstSeen: UInt64) {
        let question = Question(key: key, lookup: SocketDiagMessage.Lookup(proto: key.proto, local: local, remote: remote),
                                firstSeen: firstSeen)
        enum Admission { case refused, queued, queuedAndIdle }
        let admission = pending.withLock { pending -> Admission in
            guard pending.waiting < Self.backlogLimit else { return .refused }
            pending.waiting += 1
            pending.questions.append(question)
            guard !pending.draining else { return .queued }
            pending.draining = true
            return .queuedAndIdle
        }
        switch admission {
        case .queued: return
        case .queuedAndIdle: queue.async { [self] in drain() }
        case .refused:
            let refusal = ProgramAttribution.unavailable("too many connections opened at once to ask about each "
                                                          + "(\(Self.backlogLimit) waiting)")
            post([Answer(key: key, attribution: refusal, firstSeen: firstSeen, asked: false)])
        }
    }

    /// Every answer waiting, oldest first (the loop's thread).
    package func takeAnswers() -> [Answer] {
        let taken = answers.withLock { waiting in
            let all = waiting
            waiting.removeAll(keepingCapacity: true)
            return all
        }
        let asked = taken.reduce(0) { $0 + ($1.asked ? 1 : 0) }
        if asked > 0 { pending.withLock { $0.waiting -= asked } }
        return taken
    }

    /// On the queue: answers what waits, batch by batch, until nothing does.
    private func drain() {
        while true {
            let batch = pending.withLock { pending -> [Question] in
                let batch = pending.questions
                pending.questions.removeAll(keepingCapacity: true)
                if batch.isEmpty { pending.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            post(batch.map { question in
                let (attribution, holder) = attributionAndHolder(of: question.lookup)
                return Answer(key: question.key, attribution: attribution, firstSeen: question.firstSeen, asked: true, holder: holder)
            })
        }
    }

    private func post(_ batch: [Answer]) {
        let first = answers.withLock { waiting in
            waiting.append(contentsOf: batch)
            return waiting.count == batch.count
        }
        if first { wake() }
    }

    /// On the queue.
    private func attributionAndHolder(of question: SocketDiagMessage.Lookup) -> (ProgramAttribution, SocketOwnerLookup.Holder?) {
        lookup.withLock { lookup in
            let descriptor: Int32
            switch namespace {
            case .success(let found): descriptor = found
            case .failure(let failure): return (.unavailable(failure.description), nil)
            }
            if lookup == nil {
                do throws(SocketDiagMessage.Failure) {
                    lookup = .success(try SocketOwnerLookup(namespaceDescriptor: descriptor, procRoot: procRoot))
                } catch {
                    lookup = .failure(error)
                }
            }
            switch lookup! {
            case .success(let socket): return socket.attributionAndHolder(of: question)
            case .failure(let failure): return (.unavailable(failure.description), nil)
            }
        }
    }
}
