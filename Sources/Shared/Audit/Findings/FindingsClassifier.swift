/// Classifies one audit session's flows into findings and, per check, satisfied, unassessed and
/// not-applicable flows (audit.md § Findings). Pure: no store, no clock. It reads only the
/// project's allowlist, the session's kind and inspection conditions, and the `consentGiven`
/// markers of this session; it holds no threshold of its own (the policy brings the one there is).
package enum FindingsClassifier {
    /// `flows` are the session's, each once; they are taken in chronological order (first packet,
    /// then id) whatever order they come in, so the result never depends on it.
    package static func classify(flows: [StoredFlow], project: AuditProject, session: AuditSession,
                                markers: [SessionMarker], policy: FindingsPolicy) -> SessionFindings {
        let consent = ConsentInterval(markers: markers, sessionID: session.id)
        var findings = FindingGroups()
        var tlsVersion = CoverageGroups<TLSVersionGap>()
        var encryption = CoverageGroups<EncryptionGap>()
        var host = CoverageGroups<HostGap>()
        var pinning = CoverageGroups<PinningGap>()
        var consentCoverage = CoverageGroups<ConsentGap>()
        let chronological = flows.sorted { ($0.firstSeenNanoseconds, $0.id) < ($1.firstSeenNanoseconds, $1.id) }
        for flow in chronological {
            // The order a flow's own findings are listed in: cleartext, TLS version, destination,
            // pinning, consent.
            encryption.add(flow.id, EncryptionAssessment(of: flow).outcome, to: &findings)
            tlsVersion.add(flow.id, TLSVersionAssessment(of: flow, minimum: policy.minimumTLSVersion).outcome, to: &findings)
            host.add(flow.id, HostAssessment(of: flow, project: project).outcome, to: &findings)
            pinning.add(flow.id, PinningAssessment(of: flow, conditions: session.inspection).outcome, to: &findings)
            consentCoverage.add(flow.id, ConsentAssessment(of: flow, sessionKind: session.kind, consent: consent).outcome,
                                to: &findings)
        }
        return SessionFindings(findings: findings.findings, tlsVersion: tlsVersion.coverage, encryption: encryption.coverage,
                               host: host.coverage, pinning: pinning.coverage, consent: consentCoverage.coverage)
    }
}

/// Flows gathered under equal keys, in the order each key first came.
private struct OrderedGroups<Key: Hashable> {
    private var keys: [Key] = []
    private var flowIDs: [Key: [Int64]] = [:]

    mutating func add(_ flowID: Int64, under key: Key) {
        if flowIDs[key] == nil { keys.append(key) }
        flowIDs[key, default: []].append(flowID)
    }

    var groups: [(key: Key, flowIDs: [Int64])] { keys.map { ($0, flowIDs[$0] ?? []) } }
}

/// One finding per statement, however many flows make it.
private struct FindingGroups {
    var statements = OrderedGroups<FindingEvidence>()

    var findings: [Finding] { statements.groups.map { Finding(checked: $0.key, flowIDs: $0.flowIDs) } }
}

/// One check's buckets as the flows come.
private struct CoverageGroups<Gap: CoverageGap> {
    private var satisfied: [Int64] = []
    private var unassessed = OrderedGroups<Gap>()
    private var notApplicable: [Int64] = []

    mutating func add(_ flowID: Int64, _ outcome: CheckOutcome<Gap>, to findings: inout FindingGroups) {
        switch outcome {
        case let .finding(evidence): findings.statements.add(flowID, under: evidence)
        case .satisfied: satisfied.append(flowID)
        case let .unassessed(gap): unassessed.add(flowID, under: gap)
        case .notApplicable: notApplicable.append(flowID)
        }
    }

    var coverage: CheckCoverage<Gap> {
        CheckCoverage(satisfiedFlowIDs: satisfied, unassessed: unassessed.groups.map { UnassessedFlows(gap: $0.key, flowIDs: $0.flowIDs) },
                      notApplicableFlowIDs: notApplicable)
    }
}
