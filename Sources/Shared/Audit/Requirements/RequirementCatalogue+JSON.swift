import Foundation

/// The catalogue format as it is read: every field optional, so that a missing one is refused by
/// its name rather than by the decoder's words.
struct FormatVersionJSON: Decodable {
    let formatVersion: Int?
}

struct CatalogueJSON: Decodable {
    struct Source: Decodable {
        let document, title, version, date, sha256: String?
    }

    struct TLS: Decodable {
        let minimumVersion, source: String?
    }

    struct Aspect: Decodable {
        let number: Int?
        let name: String?
    }

    struct Requirement: Decodable {
        let id, title, testDepth, rule, toolCoverage: String?
        let aspect: Aspect?
        let contraryKinds, supportingKinds: [String]?
    }

    let identifier: String?
    let source: Source?
    let tls: TLS?
    let requirements: [Requirement]?

    func checked() throws(RequirementCatalogueError) -> RequirementCatalogue {
        let name = try Self.text(identifier, "identifier")
        let document = CatalogueSource(document: try Self.text(source?.document, "source.document"),
                                       title: try Self.text(source?.title, "source.title"),
                                       version: try Self.text(source?.version, "source.version"),
                                       date: try Self.text(source?.date, "source.date"), sha256: source?.sha256)
        guard CatalogueSource.isCalendarDate(document.date) else { throw .invalidDate(document.date) }
        if let digest = document.sha256, !CatalogueSource.isDigest(digest) { throw .invalidDigest(digest) }
        let minimum = try Self.text(tls?.minimumVersion, "tls.minimumVersion")
        guard let policy = RequirementCatalogue.minimumVersions[minimum].flatMap(FindingsPolicy.init(minimumTLSVersion:)) else {
            throw .invalidTLSMinimum(minimum)
        }
        let tlsSource = try Self.text(tls?.source, "tls.source")
        guard let requirements, !requirements.isEmpty else { throw .noRequirements }
        var checked: [Shared.Requirement] = []
        for (index, requirement) in requirements.enumerated() {
            let next = try requirement.checked(at: index)
            guard !checked.contains(where: { $0.id == next.id }) else { throw .duplicateRequirement(next.id) }
            checked.append(next)
        }
        return RequirementCatalogue(identifier: name, source: document, tlsSource: tlsSource, policy: policy,
                                    requirements: checked)
    }

    /// `value` when it has text; else the refusal naming `field`.
    static func text(_ value: String?, _ field: String) throws(RequirementCatalogueError) -> String {
        guard let value, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyField(field) }
        return value
    }
}

extension CatalogueJSON.Requirement {
    func checked(at index: Int) throws(RequirementCatalogueError) -> Shared.Requirement {
        let requirementID = try CatalogueJSON.text(id, "requirements[\(index)].id")
        let checkedTitle = try CatalogueJSON.text(title, "\(requirementID).title")
        var checkedAspect: RequirementAspect?
        if let aspect {
            guard let number = aspect.number, number > 0, let name = aspect.name,
                  !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidAspect(requirement: requirementID) }
            checkedAspect = RequirementAspect(number: number, name: name)
        }
        var depth: RequirementTestDepth?
        if let testDepth {
            guard let known = RequirementTestDepth(rawValue: testDepth) else {
                throw .unknownTestDepth(requirement: requirementID, testDepth)
            }
            depth = known
        }
        let requirementRule = try checkedRule(id: requirementID)
        let coverage = toolCoverage.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        guard requirementRule.check == nil || coverage != nil else { throw .missingToolCoverage(requirement: requirementID) }
        return Shared.Requirement(id: requirementID, aspect: checkedAspect, title: checkedTitle, testDepth: depth,
                                  rule: requirementRule, toolCoverage: coverage)
    }

    private func checkedRule(id: String) throws(RequirementCatalogueError) -> RequirementRule {
        let text = try CatalogueJSON.text(rule, "\(id).rule")
        guard let name = RequirementRule.Name(rawValue: text) else { throw .unknownRule(requirement: id, text) }
        // An empty list names nothing: it is taken as absent.
        let contrary = try kinds(contraryKinds ?? [], id: id)
        let supporting = try kinds(supportingKinds ?? [], id: id)
        let rule: RequirementRule
        switch name {
        case .outsideToolScope:
            guard contrary.isEmpty else { throw .unexpectedKinds(requirement: id, field: "contraryKinds") }
            guard supporting.isEmpty else { throw .unexpectedKinds(requirement: id, field: "supportingKinds") }
            return .outsideToolScope
        case .contraryFindings:
            guard !contrary.isEmpty else { throw .missingKinds(requirement: id, field: "contraryKinds") }
            guard supporting.isEmpty else { throw .unexpectedKinds(requirement: id, field: "supportingKinds") }
            rule = .contraryFindings(contrary)
        case .contraryAndSupportingFindings:
            guard !contrary.isEmpty else { throw .missingKinds(requirement: id, field: "contraryKinds") }
            guard !supporting.isEmpty else { throw .missingKinds(requirement: id, field: "supportingKinds") }
            rule = .contraryAndSupportingFindings(contrary: contrary, supporting: supporting)
        }
        var seen: Set<FindingKind> = []
        for kind in contrary + supporting where !seen.insert(kind).inserted { throw .repeatedKind(requirement: id, kind) }
        guard Set(seen.map(\.check)).count == 1 else { throw .kindsOfSeveralChecks(requirement: id) }
        return rule
    }

    private func kinds(_ names: [String], id: String) throws(RequirementCatalogueError) -> [FindingKind] {
        var kinds: [FindingKind] = []
        for name in names {
            guard let kind = FindingKind(rawValue: name) else { throw .unknownFindingKind(requirement: id, name) }
            kinds.append(kind)
        }
        return kinds
    }
}
