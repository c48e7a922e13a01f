import Dispatch

/// Where the responders' work runs: a concurrent dispatch queue of the server's own, preferred by
/// each responder Task (SE-0417), so the answers — and the default actors they call, such as the
/// history's readers — never wait behind whatever else holds the process's cooperative pool
/// (a host that blocks its threads would otherwise stall every page). Dispatch adds threads when
/// its jobs block on SQLite or files, as the cooperative pool by design does not.
final class WebResponderExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "tunnelvision ui responders", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.async { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
