import CTunnelVision

/// What the init's reports and its own wait status say about CMD, folded as they arrive: a
/// failure to set up or to start wins over the ending it implies (status 127 from a failed
/// exec is not CMD's), and an init that died without a report took CMD with it.
struct CommandConclusion: Sendable, Equatable {
    let program: String
    private(set) var failure: CommandStartFailure?
    private(set) var ending: MonitoredCommand.Ending?

    init(program: String) { self.program = program }

    /// One ctv_report record.
    mutating func record(kind: Int32, step: Int32, value: Int32) {
        switch kind {
        case Int32(CTV_REPORT_SETUP_FAILED):
            failure = failure ?? .setUp(step: .init(reported: step) ?? .fork, errno: value)
        case Int32(CTV_REPORT_START_FAILED):
            failure = failure ?? .start(program: program, step: .init(reported: step) ?? .exec, errno: value)
        case Int32(CTV_REPORT_ENDED):
            ending = ending ?? MonitoredCommand.Ending(waitStatus: value)
        default:
            break
        }
    }

    /// The answer once the init has ended with `initWaitStatus`. Killed (by `terminate`, or by
    /// anyone), it took its whole PID namespace, CMD included, with the same signal.
    func result(initWaitStatus: Int32) -> Result<MonitoredCommand.Ending, CommandStartFailure> {
        if let failure { return .failure(failure) }
        if let ending { return .success(ending) }
        if case let .signalled(signal)? = MonitoredCommand.Ending(waitStatus: initWaitStatus) { return .success(.signalled(signal)) }
        return .failure(.initLost(waitStatus: initWaitStatus))
    }
}
