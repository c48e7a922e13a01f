/// A target as the service record writes it (and `status --json` shows it):
/// `{"kind":"netns","name":"NAME"}`, `{"kind":"pid","pid":N}`, `{"kind":"interface","name":"IF"}`
/// or `{"kind":"host"}` — the kinds are `up`'s own options.
extension MonitoringTarget: Codable {
    package enum Kind: String, Codable, Sendable, CaseIterable { case host, netns, pid, interface }

    package var kind: Kind {
        switch self {
        case .host: .host
        case .namespace: .netns
        case .process: .pid
        case .interface: .interface
        }
    }

    /// The namespace's or the interface's name.
    package var name: String? {
        switch self {
        case let .namespace(name), let .interface(name): name
        case .host, .process: nil
        }
    }

    /// The process whose namespace it is.
    package var pid: Int32? { if case let .process(pid) = self { pid } else { nil } }

    private enum CodingKeys: String, CodingKey { case kind, name, pid }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .host: self = .host
        case .netns: self = .namespace(try container.decode(String.self, forKey: .name))
        case .pid: self = .process(try container.decode(Int32.self, forKey: .pid))
        case .interface: self = .interface(try container.decode(String.self, forKey: .name))
        }
        // A target that cannot be (a name with a slash, pid 0) is no target, wherever it is read.
        if let invalidity {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: invalidity))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(pid, forKey: .pid)
    }
}
