/// Why a check could not say anything about a flow. Each gap has a stable identifier (the
/// evidence bundle's JSON) and one English sentence a report prints.
package protocol CoverageGap: Sendable, Hashable {
    /// Stable; never localised. For a gap with a detail, the case alone (the detail has its own).
    var identifier: String { get }
    var statement: String { get }
}

/// What one check made of one flow: the four buckets a flow can land in (audit.md § Findings).
package enum CheckOutcome<Gap: CoverageGap>: Sendable, Hashable {
    /// The flow is evidence of a finding.
    case finding(FindingEvidence)
    /// The check read the flow and found nothing against it.
    case satisfied
    case unassessed(Gap)
    /// The check is not about flows like this one.
    case notApplicable
}

/// Flows one check could not assess for the same reason, chronological.
package struct UnassessedFlows<Gap: CoverageGap>: Sendable, Hashable {
    package let gap: Gap
    package let flowIDs: [Int64]

    package init(gap: Gap, flowIDs: [Int64]) {
        self.gap = gap
        self.flowIDs = flowIDs
    }
}

/// Where one check put the flows that are not in its findings: together with those, every flow of
/// the session exactly once. Each list is chronological; the gaps are in the order of their first flow.
package struct CheckCoverage<Gap: CoverageGap>: Sendable, Hashable {
    package let satisfiedFlowIDs: [Int64]
    package let unassessed: [UnassessedFlows<Gap>]
    package let notApplicableFlowIDs: [Int64]

    package init(satisfiedFlowIDs: [Int64] = [], unassessed: [UnassessedFlows<Gap>] = [], notApplicableFlowIDs: [Int64] = []) {
        self.satisfiedFlowIDs = satisfiedFlowIDs
        self.unassessed = unassessed
        self.notApplicableFlowIDs = notApplicableFlowIDs
    }

    /// Every flow the check could not assess, whatever the reason.
    package var unassessedFlowIDs: [Int64] { unassessed.flatMap(\.flowIDs) }
}
