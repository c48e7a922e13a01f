/// The name DNS gave an address: what the device last asked for when it was handed the address.
package struct ResolvedName: Sendable, Hashable {
    /// The name asked (not the end of a CNAME chain), normalised: lowercase, no trailing dot.
    package var name: String
    /// When the reply naming it was read, packet-clock nanoseconds.
    package var resolvedAt: UInt64
    /// The address's other live names, most recent first; empty when the name is uncontested.
    package var otherNames: [String]

    package init(name: String, resolvedAt: UInt64, otherNames: [String] = []) {
        self.name = name
        self.resolvedAt = resolvedAt
        self.otherNames = otherNames
    }
}

extension ResolvedFlowName {
    /// What a flow keeps of the map's answer when it begins: the name and its competitors.
    package init(_ resolved: ResolvedName) {
        self.init(name: resolved.name, otherNames: resolved.otherNames)
    }
}
