/// How the findings bear on a requirement (audit.md § Requirement catalogue). The kinds a rule
/// reads all belong to one check, each once.
package enum RequirementRule: Sendable, Hashable {
    /// Network observation cannot speak to the requirement.
    case outsideToolScope
    /// A finding of any of these kinds contradicts the requirement.
    case contraryFindings([FindingKind])
    /// As `contraryFindings`, and a finding of a supporting kind is an observation without contradiction.
    case contraryAndSupportingFindings(contrary: [FindingKind], supporting: [FindingKind])

    /// The rule's form without its kinds. Raw values are the catalogue format's names.
    package enum Name: String, Sendable, Hashable, CaseIterable {
        case outsideToolScope
        case contraryFindings
        case contraryAndSupportingFindings
    }

    package var name: Name {
        switch self {
        case .outsideToolScope: .outsideToolScope
        case .contraryFindings: .contraryFindings
        case .contraryAndSupportingFindings: .contraryAndSupportingFindings
        }
    }

    /// The catalogue format's name of the rule.
    package var identifier: String { name.rawValue }

    package var contraryKinds: [FindingKind] {
        switch self {
        case .outsideToolScope: []
        case let .contraryFindings(kinds), let .contraryAndSupportingFindings(kinds, _): kinds
        }
    }

    package var supportingKinds: [FindingKind] {
        if case let .contraryAndSupportingFindings(_, supporting) = self { return supporting }
        return []
    }

    /// The check whose findings the rule reads; nil when it reads none.
    package var check: AuditCheck? { (contraryKinds + supportingKinds).first?.check }
}
