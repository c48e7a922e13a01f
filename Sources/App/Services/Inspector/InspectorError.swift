import Shared

/// Why the inspector could not show or export what was asked. Each says what to do.
package enum InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
    case history(HistoryError)
    /// `--packet N` past the flow's packets (or below 1).
    case packetOutOfRange(number: Int, flowID: Int64, count: Int)
    /// The packet has no bytes to show: the reason, from `PacketBytesPresentation`.
    case bytesUnavailable(String)
    case export(FlowCaptureExportError)

    package var description: String {
        switch self {
        case let .history(error): error.description
        case let .packetOutOfRange(number, flowID, count):
            count == 0 ? "connection \(flowID) has no packets in the history, so there is no packet \(number)"
                : "connection \(flowID) has \(count) packets: ask for one from 1 to \(count), not \(number)"
        case let .bytesUnavailable(reason): reason
        case let .export(error): error.description
        }
    }
}
