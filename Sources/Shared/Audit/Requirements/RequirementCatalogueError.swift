/// Why a requirement catalogue was refused as it was read (audit.md § Requirement catalogue). A
/// refused catalogue is never used in part, nor replaced by another: the caller reports the
/// sentence and the catalogue's file is what needs fixing. `requirement` is the requirement's id,
/// or `requirements[N]` (from 0) when it has none.
package enum RequirementCatalogueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON, or a field of the wrong type; the detail says where.
    case malformed(String)
    /// A `formatVersion` this build does not read (nil: none given).
    case unsupportedFormatVersion(Int?)
    /// A field that must have text is missing or blank; its path, `source.title`.
    case emptyField(String)
    /// `source.date` is not a real date written `yyyy-MM-dd`.
    case invalidDate(String)
    /// `source.sha256` is given but is not 64 lowercase hex digits.
    case invalidDigest(String)
    /// `tls.minimumVersion` is not one of `1.0`, `1.1`, `1.2`, `1.3`.
    case invalidTLSMinimum(String)
    case noRequirements
    case duplicateRequirement(String)
    /// An `aspect` without a positive number or without a name.
    case invalidAspect(requirement: String)
    case unknownTestDepth(requirement: String, String)
    case unknownRule(requirement: String, String)
    case unknownFindingKind(requirement: String, String)
    /// The rule reads findings and `field` names none.
    case missingKinds(requirement: String, field: String)
    /// The rule reads no findings of the sort `field` lists.
    case unexpectedKinds(requirement: String, field: String)
    case repeatedKind(requirement: String, FindingKind)
    /// The rule's kinds belong to more than one check.
    case kindsOfSeveralChecks(requirement: String)
    /// The rule reads findings but says nothing of what the tool can observe for it.
    case missingToolCoverage(requirement: String)

    package var description: String {
        switch self {
        case let .malformed(detail):
            "the requirement catalogue is not one this build can read: \(detail)"
        case let .unsupportedFormatVersion(version):
            "the requirement catalogue's format version is \(version.map(String.init) ?? "missing"); "
                + "this build reads version \(RequirementCatalogue.formatVersion)"
        case let .emptyField(field):
            "the requirement catalogue's \(field) is missing or empty"
        case let .invalidDate(text):
            "the requirement catalogue's source.date '\(text)' is not a date written yyyy-MM-dd"
        case let .invalidDigest(text):
            "the requirement catalogue's source.sha256 '\(text)' is not 64 lowercase hexadecimal digits"
        case let .invalidTLSMinimum(text):
            "the requirement catalogue's tls.minimumVersion '\(text)' is not one of "
                + RequirementCatalogue.minimumVersions.keys.sorted().joined(separator: ", ")
        case .noRequirements:
            "the requirement catalogue lists no requirements"
        case let .duplicateRequirement(id):
            "the requirement catalogue lists \(id) more than once"
        case let .invalidAspect(requirement):
            "\(requirement)'s aspect needs a number from 1 and a name"
        case let .unknownTestDepth(requirement, text):
            "\(requirement)'s testDepth '\(text)' is not one of "
                + RequirementTestDepth.allCases.map(\.rawValue).joined(separator: ", ")
        case let .unknownRule(requirement, text):
            "\(requirement)'s rule '\(text)' is not one of "
                + RequirementRule.Name.allCases.map(\.rawValue).joined(separator: ", ")
        case let .unknownFindingKind(requirement, text):
            "\(requirement) names '\(text)', which is no kind of finding this build makes"
        case let .missingKinds(requirement, field):
            "\(requirement)'s rule reads findings but its \(field) names none"
        case let .unexpectedKinds(requirement, field):
            "\(requirement)'s rule reads no \(field), yet the requirement lists some"
        case let .repeatedKind(requirement, kind):
            "\(requirement) names \(kind.rawValue) more than once"
        case let .kindsOfSeveralChecks(requirement):
            "\(requirement)'s kinds belong to more than one check; a rule reads the findings of one check"
        case let .missingToolCoverage(requirement):
            "\(requirement)'s rule reads findings but it has no toolCoverage saying what the tool can observe for it"
        }
    }
}
