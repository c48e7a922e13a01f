import Foundation

/// The requirement catalogues this build carries (audit.md § Requirement catalogue). A project that
/// names no catalogue reads the default one; a named catalogue that is not carried is refused,
/// never replaced by another.
///
/// The catalogues are compiled in as JSON text rather than shipped as a resource folder: the
/// product is installed as one binary (`scripts/package`), so a folder beside it would not be
/// there, and SwiftPM's `Bundle.module` stops the process when its folder is missing.
package struct RequirementCatalogueLibrary: Sendable {
    package static let defaultIdentifier = "tr-03161-1_3.0"

    /// What this build carries.
    package static let bundled = RequirementCatalogueLibrary(texts: [defaultIdentifier: tr03161Part1Version3])

    /// Each catalogue's JSON under the identifier it must declare.
    let texts: [String: String]

    /// A library of other texts: a test's, to see a refusal through to its caller.
    package init(texts: [String: String]) {
        self.texts = texts
    }

    /// The identifiers carried, sorted.
    package var identifiers: [String] { texts.keys.sorted() }

    /// The catalogue `project` reads: the one it names, else the default.
    package static func identifier(for project: AuditProject) -> String {
        project.catalogueVersion ?? defaultIdentifier
    }

    /// The catalogue carried under `identifier`, read and checked.
    package func catalogue(identifier: String) throws(RequirementCatalogueLibraryError) -> RequirementCatalogue {
        guard let text = texts[identifier] else { throw .notBundled(identifier) }
        let catalogue: RequirementCatalogue
        do {
            catalogue = try RequirementCatalogue(data: Data(text.utf8))
        } catch {
            throw .unusable(identifier: identifier, error)
        }
        guard catalogue.identifier == identifier else {
            throw .misfiled(identifier: identifier, declared: catalogue.identifier)
        }
        return catalogue
    }

    /// `bundled.catalogue(identifier:)`.
    package static func catalogue(identifier: String) throws(RequirementCatalogueLibraryError) -> RequirementCatalogue {
        try bundled.catalogue(identifier: identifier)
    }
}

/// Why no catalogue could be had; the caller reports it and assesses no requirement.
package enum RequirementCatalogueLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This build carries no catalogue of that name: the project names one from another build.
    case notBundled(String)
    /// The catalogue carried is refused: a fault of this build.
    case unusable(identifier: String, RequirementCatalogueError)
    /// The catalogue carried declares another identifier than the one it is carried under: a fault of this build.
    case misfiled(identifier: String, declared: String)

    package var description: String {
        switch self {
        case let .notBundled(identifier):
            "this build carries no requirement catalogue '\(identifier)'"
        case let .unusable(identifier, error):
            "the requirement catalogue '\(identifier)' this build carries cannot be used: \(error)"
        case let .misfiled(identifier, declared):
            "the requirement catalogue carried as '\(identifier)' declares itself '\(declared)'"
        }
    }
}
