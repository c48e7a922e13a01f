/// What TLS inspection did: from a candidate to a termination, and every way off that path. They
/// answer "why is nothing being inspected?" (seeds/000 § Session diagnostics). `RelayStats`
/// carries them only once a build inspects: until then the group is absent, never zeros that
/// would claim nothing was inspected.
package struct InspectionStats: Codable, Sendable, Equatable {
    /// TLS streams that met every condition to be inspected.
    package var inspectionCandidates: UInt64
    /// Candidates for which a local TLS termination was opened.
    package var terminationsOpened: UInt64
    /// Candidates given up on before their termination was opened, and left passing through.
    package var inspectionsAbandoned: UInt64
    /// TLS streams left alone because their host is known not to be inspectable (its client
    /// refused the run's certificate, or it asks for the app's own).
    package var pinnedHostSkips: UInt64
    /// Flows whose content was decrypted.
    package var flowsInspected: UInt64
    /// Flows whose client refused the run's certificate (it pins, or trusts a store the run did
    /// not reach).
    package var flowsPinned: UInt64
    /// Terminations that broke their flow (`TLSInspectionStatus.inspectionFailed`).
    package var terminationsFailed: UInt64
    /// Every TLS flow not inspected, or broken by inspection, once, by its reason.
    package var byReason: InspectionReasonTally
    /// Leaves minted for the hosts terminated (a host's later connections reuse its leaf, so this
    /// stays at one per host); absent when the tunnel cannot tell.
    package var leavesMinted: UInt64?

    package init(inspectionCandidates: UInt64 = 0, terminationsOpened: UInt64 = 0, inspectionsAbandoned: UInt64 = 0,
                pinnedHostSkips: UInt64 = 0, flowsInspected: UInt64 = 0, flowsPinned: UInt64 = 0,
                terminationsFailed: UInt64 = 0, byReason: InspectionReasonTally = InspectionReasonTally(),
                leavesMinted: UInt64? = nil) {
        self.inspectionCandidates = inspectionCandidates
        self.terminationsOpened = terminationsOpened
        self.inspectionsAbandoned = inspectionsAbandoned
        self.pinnedHostSkips = pinnedHostSkips
        self.flowsInspected = flowsInspected
        self.flowsPinned = flowsPinned
        self.terminationsFailed = terminationsFailed
        self.byReason = byReason
        self.leavesMinted = leavesMinted
    }

    /// Inspection on, nothing inspected yet.
    package static let zero = InspectionStats()
}
