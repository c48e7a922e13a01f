import Foundation
import Testing
@testable import Shared

/// The catalogues this build carries (audit.md § Requirement catalogue): the default one, and a
/// named one that is not carried refused, never replaced.
@Suite struct RequirementCatalogueLibraryTests {
    @Test("the default catalogue is tr-03161-1_3.0, carried and usable under its own identifier")
    func defaultCatalogue() throws {
        #expect(RequirementCatalogueLibrary.defaultIdentifier == "tr-03161-1_3.0")
        #expect(RequirementCatalogueLibrary.bundled.identifiers == ["tr-03161-1_3.0"])
        for identifier in RequirementCatalogueLibrary.bundled.identifiers {
            #expect(try RequirementCatalogueLibrary.catalogue(identifier: identifier).identifier == identifier)
        }
    }

    @Test("a catalogue that is not carried is refused as not bundled, never substituted", arguments: [
        "tr-03161-1_2.0", "TR-03161-1_3.0", "tr-03161-1_3.0.json", "", "tr-03161-2_1.0",
    ])
    func notBundled(identifier: String) {
        #expect(throws: RequirementCatalogueLibraryError.notBundled(identifier)) { try RequirementCatalogueLibrary.catalogue(identifier: identifier) }
    }

    @Test("a project that names no catalogue reads the default; one that names one reads that one")
    func projectsCatalogue() {
        let unnamed = AuditProject(id: 1, name: "App", createdAt: Date(timeIntervalSince1970: 0))
        let named = AuditProject(id: 2, name: "App", catalogueVersion: "tr-03161-1_2.0", createdAt: Date(timeIntervalSince1970: 0))
        #expect(RequirementCatalogueLibrary.identifier(for: unnamed) == "tr-03161-1_3.0")
        #expect(RequirementCatalogueLibrary.identifier(for: named) == "tr-03161-1_2.0")
    }

    @Test("a carried catalogue that is refused, or declares another identifier, is a fault of the build, said as such")
    func faultsOfTheBuild() {
        let shipped = RequirementCatalogueLibrary.tr03161Part1Version3
        let library = RequirementCatalogueLibrary(texts: ["broken": "{", "renamed": shipped,
                                                          "old": shipped.replacingOccurrences(of: #""formatVersion": 1"#, with: #""formatVersion": 0"#)])
        #expect(throws: RequirementCatalogueLibraryError.misfiled(identifier: "renamed", declared: "tr-03161-1_3.0")) {
            try library.catalogue(identifier: "renamed")
        }
        #expect(throws: RequirementCatalogueLibraryError.unusable(identifier: "old", .unsupportedFormatVersion(0))) {
            try library.catalogue(identifier: "old")
        }
        let broken = #expect(throws: RequirementCatalogueLibraryError.self) { try library.catalogue(identifier: "broken") }
        guard case .unusable(identifier: "broken", .malformed) = broken else {
            Issue.record("\(String(describing: broken)) is not unusable and malformed")
            return
        }
        #expect(RequirementCatalogueLibraryError.notBundled("x").description.contains("'x'"))
    }
}
