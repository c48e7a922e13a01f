/// `findings.json`: what the session's traffic says, and what that says of the catalogue's
/// requirements — never that one is met.
///
///   {"catalogue":{"identifier","source":{"date","document","sha256"?,"title","version"},
///                 "tls":{"minimumVersion":{"name","wireValue"},"source"}},
///    "checks":{"consent"|"encryption"|"host"|"pinning"|"tlsVersion":
///              {"notApplicable":[ids],"satisfied":[ids],"title",
///               "unassessed":[{"attributedNameAllowed"?,"clientOffer"?,"flowIDs","reason","statement"}]}},
///    "exportedAt","findings":[{"check","cleartextProtocol"?,"flowIDs","host"?,"id","kind","statement",
///                              "tlsVersion"?,"tlsVersionBasis"?,"unnamedReason"?}],
///    "format":"tunnelvision.evidence.findings","formatVersion":1,
///    "requirements":[{"aspect"?:{"name","number"},"check"?,"findingsAgainst":[ids],"findingsFor":[ids],"id",
///                     "rule","testDepth"?,"title","toolCoverage"?,"verdict","verdictStatement"}],
///    "sessionID","verdictsNote"}
extension EvidenceBundle {
    /// What the verdicts are, said once in the document that holds them.
    package static let verdictsNote = "Each requirement's verdict is what this session's traffic says of it: "
        + "contradicted (a finding against it), observedWithoutContradiction (traffic it concerns was observed and none of it "
        + "contradicts it, which does not show that it is met), outsideToolScope (network observation cannot assess it) or "
        + "nothingObserved (nothing it concerns was observed). No verdict says that a requirement is met."

    package var findingsJSON: [UInt8] {
        var out = JSONWriter(capacity: 4096 + flows.count * 40)
        out.beginObject()
        writeCatalogue(to: &out)
        out.beginObject("checks")
        Self.write(findings.consent, check: .consent, to: &out)
        Self.write(findings.encryption, check: .encryption, to: &out)
        Self.write(findings.host, check: .host, to: &out) { gap, out in
            if case let .candidatesDisagree(allowed) = gap { out.bool("attributedNameAllowed", allowed) }
        }
        Self.write(findings.pinning, check: .pinning, to: &out)
        Self.write(findings.tlsVersion, check: .tlsVersion, to: &out) { gap, out in
            if case let .appNegotiationNotObserved(offer) = gap { out.string("clientOffer", offer.identifier) }
        }
        out.endObject()
        EvidenceJSON.instant(&out, "exportedAt", exportedAt)
        EvidenceJSON.lines(&out, "findings", Array(findings.findings.enumerated())) { item, out in
            Self.write(item.element, id: Self.findingID(item.offset), to: &out)
        }
        out.string("format", EvidenceBundleFormat.findingsDocument)
        out.number("formatVersion", EvidenceBundleFormat.version)
        EvidenceJSON.lines(&out, "requirements", requirements) { assessment, out in write(assessment, to: &out) }
        out.number("sessionID", Int(session.id))
        out.string("verdictsNote", Self.verdictsNote)
        out.endObject()
        return EvidenceJSON.finish(&out)
    }

    private func writeCatalogue(to out: inout JSONWriter) {
        out.beginObject("catalogue")
        out.string("identifier", catalogue.identifier)
        let source = catalogue.source
        out.beginObject("source")
        out.string("date", source.date)
        out.string("document", source.document)
        if let digest = source.sha256 { out.string("sha256", digest) }
        out.string("title", source.title)
        out.string("version", source.version)
        out.endObject()
        out.beginObject("tls")
        EvidenceJSON.tlsVersion(&out, "minimumVersion", catalogue.policy.minimumTLSVersion)
        out.string("source", catalogue.tlsSource)
        out.endObject()
        out.endObject()
    }

    /// One check's flows outside its findings; `details` writes a gap's detail keys (each sorts
    /// before `flowIDs`).
    private static func write<Gap: CoverageGap>(_ coverage: CheckCoverage<Gap>, check: AuditCheck, to out: inout JSONWriter,
                                                details: (Gap, inout JSONWriter) -> Void = { _, _ in }) {
        out.beginObject(check.jsonKey)
        EvidenceJSON.ids(&out, "notApplicable", coverage.notApplicableFlowIDs)
        EvidenceJSON.ids(&out, "satisfied", coverage.satisfiedFlowIDs)
        out.string("title", check.title)
        out.beginArray("unassessed")
        for group in coverage.unassessed {
            out.beginObject()
            details(group.gap, &out)
            EvidenceJSON.ids(&out, "flowIDs", group.flowIDs)
            out.string("reason", group.gap.identifier)
            out.string("statement", group.gap.statement)
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }

    private static func write(_ finding: Finding, id: String, to out: inout JSONWriter) {
        out.beginObject()
        out.string("check", finding.kind.check.rawValue)
        if case let .cleartextTraffic(cleartext) = finding.evidence { out.string("cleartextProtocol", cleartext.rawValue) }
        EvidenceJSON.ids(&out, "flowIDs", finding.flowIDs)
        if let host = finding.evidence.host { out.string("host", host) }
        out.string("id", id)
        out.string("kind", finding.kind.rawValue)
        out.string("statement", finding.statement)
        if case let .weakTLSVersion(observation) = finding.evidence {
            EvidenceJSON.tlsVersion(&out, "tlsVersion", observation.version)
            out.string("tlsVersionBasis", observation.basis.rawValue)
        }
        if case let .unnamedFlow(reason) = finding.evidence { out.string("unnamedReason", reason.rawValue) }
        out.endObject()
    }

    private func write(_ assessment: RequirementAssessment, to out: inout JSONWriter) {
        let requirement = assessment.requirement
        out.beginObject()
        if let aspect = requirement.aspect {
            out.beginObject("aspect")
            out.string("name", aspect.name)
            out.number("number", aspect.number)
            out.endObject()
        }
        if let check = requirement.rule.check { out.string("check", check.rawValue) }
        out.strings("findingsAgainst", ids(of: assessment.findingsAgainst))
        out.strings("findingsFor", ids(of: assessment.findingsFor))
        out.string("id", requirement.id)
        out.string("rule", requirement.rule.identifier)
        if let depth = requirement.testDepth { out.string("testDepth", depth.rawValue) }
        out.string("title", requirement.title)
        if let coverage = requirement.toolCoverage { out.string("toolCoverage", coverage) }
        out.string("verdict", assessment.verdict.identifier)
        out.string("verdictStatement", assessment.verdict.statement)
        out.endObject()
    }
}
