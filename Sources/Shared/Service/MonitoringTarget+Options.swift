/// How `tunnelvision up` names a target on its command line — the one place the options are
/// spelled: `up`'s parser reads them, the manager that starts the service writes them, and the
/// history's session row is named by them.
extension MonitoringTarget {
    package static let hostOption = "--host"
    package static let namespaceOption = "--netns"
    package static let processOption = "--pid"
    package static let interfaceOption = "--interface"

    /// The options naming this target.
    package var options: [String] {
        switch self {
        case .host: [Self.hostOption]
        case let .namespace(name): [Self.namespaceOption, name]
        case let .process(pid): [Self.processOption, "\(pid)"]
        case let .interface(name): [Self.interfaceOption, name]
        }
    }
}
