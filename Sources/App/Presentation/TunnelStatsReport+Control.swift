import Shared

extension TunnelStatsReport {
    static func controlGroup(_ control: ControlStats) -> Group {
        group("control", "the control socket: answered, and refused by reason") { lines in
            lines.add("commandsAnswered", control.commandsAnswered)
            lines.add("refusedOverLong", control.refusedOverLong)
            lines.add("closedIdle", control.closedIdle)
            lines.add("refusedOverCap", control.refusedOverCap)
            lines.add("clientsGone", control.clientsGone)
            lines.add("acceptFailures", control.acceptFailures)
        }
    }
}
