#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Shared
import Synchronization

/// Asks, off the packet path, which program opened each flow (DESIGN.md § What is monitored):
/// the loop hands it a flow as it opens, a queue of its own asks the kernel and /proc
/// (`SocketOwnerLookup`), and the answers wait for the loop, which is woken once for however
/// many arrived meanwhile (`wake`, then `takeAnswers`).
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
    }

    private let queue = DispatchQueue(label: "tunnelvision.attribution")
    private let wake: @Sendable () -> Void
    private let answers = Mutex<[Answer]>([])
    /// The queue's own: the lookup, made on first use, and the namespace it is made in (owned).
    private let lookup = Mutex<Result<SocketOwnerLookup, SocketDiagMessage.Failure>?>(nil)
    /// The target's network namespace (owned), or why it could not be found.
    private let namespace: Result<Int32, LinkStatisticsError>
    private let procRoot: String
    /// Questions handed to the queue whose answers the loop has not taken.
    private let waiting = Mutex(0)

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
        let admitted = waiting.withLock { count -> Bool in
            guard count < Self.backlogLimit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            let refusal = ProgramAttribution.unavailable("too many connections opened at once to ask about each "
                                                          + "(\(Self.backlogLimit) waiting)")
            return post(Answer(key: key, attribution: refusal, firstSeen: firstSeen, asked: false))
        }
        let question = SocketDiagMessage.Lookup(proto: key.proto, local: local, remote: remote)
        queue.async { [self] in
            post(Answer(key: key, attribution: attribution(of: question), firstSeen: firstSeen, asked: true))
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
        waiting.withLock { $0 -= asked }
        return taken
    }

    private func post(_ answer: Answer) {
        let first = answers.withLock { waiting in
            waiting.append(answer)
            return waiting.count == 1
        }
        if first { wake() }
    }

    /// On the queue.
    private func attribution(of question: SocketDiagMessage.Lookup) -> ProgramAttribution {
        lookup.withLock { lookup in
            let descriptor: Int32
            switch namespace {
            case .success(let found): descriptor = found
            case .failure(let failure): return .unavailable(failure.description)
            }
            if lookup == nil {
                do throws(SocketDiagMessage.Failure) {
                    lookup = .success(try SocketOwnerLookup(namespaceDescriptor: descriptor, procRoot: procRoot))
                } catch {
                    lookup = .failure(error)
                }
            }
            switch lookup! {
            case .success(let socket): return socket.attribution(of: question)
            case .failure(let failure): return .unavailable(failure.description)
            }
        }
    }
}
