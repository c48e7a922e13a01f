/// The name DNS gave an address: what the device last asked for when it was handed the address.
public struct ResolvedName: Sendable, Hashable {
    /// The name asked (not the end of a CNAME chain), normalised: lowercase, no trailing dot.
    public var name: String
    /// When the reply naming it was read, packet-clock nanoseconds.
    public var resolvedAt: UInt64
    /// The address's other live names, most recent first; empty when the name is uncontested.
    public var otherNames: [String]

    public init(name: String, resolvedAt: UInt64, otherNames: [String] = []) {
        self.name = name
        self.resolvedAt = resolvedAt
        self.otherNames = otherNames
    }
}

extension ResolvedFlowName {
    /// What a flow keeps of the map's answer when it begins: the name and its competitors.
    public init(_ resolved: ResolvedName) {
        self.init(name: resolved.name, otherNames: resolved.otherNames)
    }
}
