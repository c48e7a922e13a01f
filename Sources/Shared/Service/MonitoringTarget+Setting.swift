/// How a target is written as the `monitoring-target` setting's value — `host`, `netns:NAME`,
/// `pid:PID` or `interface:IF`, the kinds of its record — the one place that form is spelled.
extension MonitoringTarget {
    /// The forms, as help and refusals list them.
    static let settingForms = ["host", "netns:NAME", "pid:PID", "interface:IF"]

    var settingValue: String {
        switch self {
        case .host: Kind.host.rawValue
        case let .namespace(name): "\(Kind.netns.rawValue):\(name)"
        case let .process(pid): "\(Kind.pid.rawValue):\(pid)"
        case let .interface(name): "\(Kind.interface.rawValue):\(name)"
        }
    }

    /// The target `text` names in one of the forms (the kind in any case), or nil when it names
    /// none — or one that cannot be (`invalidity`).
    package init?(settingValue text: String) {
        let kindText = text.prefix { $0 != ":" }
        guard let kind = Kind(rawValue: kindText.lowercased()) else { return nil }
        let rest = text.dropFirst(kindText.count)
        let value = rest.isEmpty ? nil : String(rest.dropFirst())
        let target: MonitoringTarget
        switch (kind, value) {
        case (.host, nil): target = .host
        case (.netns, let name?): target = .namespace(name)
        case (.pid, let number?):
            guard let pid = Int32(number) else { return nil }
            target = .process(pid)
        case (.interface, let name?): target = .interface(name)
        default: return nil
        }
        guard target.invalidity == nil else { return nil }
        self = target
    }
}
