import Foundation
import Testing
import Shared

/// Reading a requirement catalogue (audit.md § Requirement catalogue): every load-time refusal,
/// unknown keys ignored, and the shipped catalogue's content.
@Suite struct RequirementCatalogueTests {
    typealias JSON = [String: Any]

    static func requirement(_ id: String, _ rule: String, contrary: [String]? = nil, supporting: [String]? = nil,
                            coverage: String? = "What the tool sees.") -> JSON {
        var requirement: JSON = ["id": id, "title": "Title of \(id)", "rule": rule]
        requirement["contraryKinds"] = contrary
        requirement["supportingKinds"] = supporting
        requirement["toolCoverage"] = coverage
        return requirement
    }

    /// A small catalogue that loads.
    static func base() -> JSON {
        [
            "formatVersion": 1, "identifier": "test-1",
            "source": ["document": "Doc", "title": "A document", "version": "1.0", "date": "2024-02-29",
                       "sha256": String(repeating: "0123456789abcdef", count: 4)],
            "tls": ["minimumVersion": "1.2", "source": "Somewhere §1"],
            "requirements": [
                requirement("O.Ntwk_1", "contraryFindings", contrary: ["cleartextTraffic"]),
                requirement("O.Ntwk_3", "outsideToolScope", coverage: nil),
            ],
        ]
    }

    static func load(_ json: JSON) throws(RequirementCatalogueError) -> RequirementCatalogue {
        try RequirementCatalogue(data: try! JSONSerialization.data(withJSONObject: json))
    }

    /// `base()` with `change` made to it, expected to be refused with `error`.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let error: RequirementCatalogueError
        let change: @Sendable (inout JSON) -> Void
        var testDescription: String { name }

        init(_ name: String, _ error: RequirementCatalogueError, _ change: @escaping @Sendable (inout JSON) -> Void) {
            self.name = name
            self.error = error
            self.change = change
        }
    }

    static func source(_ key: String, _ value: Any?) -> @Sendable (inout JSON) -> Void {
        nonisolated(unsafe) let value = value
        return { json in
            var source = json["source"] as! JSON
            source[key] = value
            json["source"] = source
        }
    }

    static func tls(_ key: String, _ value: String?) -> @Sendable (inout JSON) -> Void {
        { json in
            var tls = json["tls"] as! JSON
            tls[key] = value
            json["tls"] = tls
        }
    }

    static func first(_ key: String, _ value: Any?) -> @Sendable (inout JSON) -> Void {
        nonisolated(unsafe) let value = value
        return { json in
            var requirements = json["requirements"] as! [JSON]
            requirements[0][key] = value
            json["requirements"] = requirements
        }
    }

    static func requirements(_ list: [JSON]) -> @Sendable (inout JSON) -> Void {
        nonisolated(unsafe) let list = list
        return { json in json["requirements"] = list }
    }

    static let refusals: [Refusal] = [
        Refusal("another format version", .unsupportedFormatVersion(2)) { $0["formatVersion"] = 2 },
        Refusal("no format version", .unsupportedFormatVersion(nil)) { $0["formatVersion"] = nil },
        Refusal("no identifier", .emptyField("identifier")) { $0["identifier"] = nil },
        Refusal("a blank identifier", .emptyField("identifier")) { $0["identifier"] = "  " },
        Refusal("no source", .emptyField("source.document")) { $0["source"] = nil },
        Refusal("an empty document", .emptyField("source.document"), source("document", "")),
        Refusal("an empty source title", .emptyField("source.title"), source("title", "")),
        Refusal("no source version", .emptyField("source.version"), source("version", nil)),
        Refusal("no source date", .emptyField("source.date"), source("date", nil)),
        Refusal("a date not yyyy-MM-dd", .invalidDate("25.03.2024"), source("date", "25.03.2024")),
        Refusal("a date without leading zeros", .invalidDate("2024-3-25"), source("date", "2024-3-25")),
        Refusal("a date that does not exist", .invalidDate("2023-02-29"), source("date", "2023-02-29")),
        Refusal("a month that does not exist", .invalidDate("2024-13-01"), source("date", "2024-13-01")),
        Refusal("an uppercase digest", .invalidDigest(String(repeating: "ABCDEF0123456789", count: 4)),
                source("sha256", String(repeating: "ABCDEF0123456789", count: 4))),
        Refusal("a short digest", .invalidDigest(String(repeating: "a", count: 63)), source("sha256", String(repeating: "a", count: 63))),
        Refusal("a digest with a non-hex digit", .invalidDigest(String(repeating: "g", count: 64)), source("sha256", String(repeating: "g", count: 64))),
        Refusal("a TLS minimum that is no version", .invalidTLSMinimum("1.4"), tls("minimumVersion", "1.4")),
        Refusal("a TLS minimum written as a name", .invalidTLSMinimum("TLS 1.2"), tls("minimumVersion", "TLS 1.2")),
        Refusal("SSL 3.0 as the TLS minimum", .invalidTLSMinimum("3.0"), tls("minimumVersion", "3.0")),
        Refusal("no TLS minimum", .emptyField("tls.minimumVersion"), tls("minimumVersion", nil)),
        Refusal("an empty TLS source", .emptyField("tls.source"), tls("source", "")),
        Refusal("no requirements", .noRequirements) { $0["requirements"] = nil },
        Refusal("an empty requirement list", .noRequirements, requirements([])),
        Refusal("a repeated requirement", .duplicateRequirement("O.Ntwk_1"), requirements([
            requirement("O.Ntwk_1", "outsideToolScope"), requirement("O.Ntwk_2", "outsideToolScope"), requirement("O.Ntwk_1", "outsideToolScope"),
        ])),
        Refusal("a requirement without an id", .emptyField("requirements[0].id"), first("id", "")),
        Refusal("a requirement without a title", .emptyField("O.Ntwk_1.title"), first("title", nil)),
        Refusal("an aspect numbered 0", .invalidAspect(requirement: "O.Ntwk_1"), first("aspect", ["number": 0, "name": "Network"] as JSON)),
        Refusal("an aspect without a name", .invalidAspect(requirement: "O.Ntwk_1"), first("aspect", ["number": 9])),
        Refusal("an unknown test depth", .unknownTestDepth(requirement: "O.Ntwk_1", "check"), first("testDepth", "check")),
        Refusal("no rule", .emptyField("O.Ntwk_1.rule"), first("rule", nil)),
        Refusal("an unknown rule", .unknownRule(requirement: "O.Ntwk_1", "contrary"), first("rule", "contrary")),
        Refusal("an unknown kind", .unknownFindingKind(requirement: "O.Ntwk_1", "slowTraffic"), first("contraryKinds", ["slowTraffic"])),
        Refusal("contrary findings naming none", .missingKinds(requirement: "O.Ntwk_1", field: "contraryKinds"), first("contraryKinds", nil)),
        Refusal("contrary findings naming an empty list", .missingKinds(requirement: "O.Ntwk_1", field: "contraryKinds"),
                first("contraryKinds", [String]())),
        Refusal("contrary findings with supporting kinds", .unexpectedKinds(requirement: "O.Ntwk_1", field: "supportingKinds"),
                first("supportingKinds", ["cleartextTraffic"])),
        Refusal("supporting findings naming none", .missingKinds(requirement: "O.Ntwk_4", field: "supportingKinds"), requirements([
            requirement("O.Ntwk_4", "contraryAndSupportingFindings", contrary: ["pinningAbsent"]),
        ])),
        Refusal("a rule outside the tool's scope with kinds", .unexpectedKinds(requirement: "O.Ntwk_3", field: "contraryKinds"), requirements([
            requirement("O.Ntwk_3", "outsideToolScope", contrary: ["cleartextTraffic"]),
        ])),
        Refusal("a kind repeated", .repeatedKind(requirement: "O.Ntwk_1", .cleartextTraffic),
                first("contraryKinds", ["cleartextTraffic", "cleartextTraffic"])),
        Refusal("a kind both contrary and supporting", .repeatedKind(requirement: "O.Ntwk_4", .pinningAbsent), requirements([
            requirement("O.Ntwk_4", "contraryAndSupportingFindings", contrary: ["pinningAbsent"], supporting: ["pinningObserved", "pinningAbsent"]),
        ])),
        Refusal("kinds of two checks", .kindsOfSeveralChecks(requirement: "O.Ntwk_1"),
                first("contraryKinds", ["cleartextTraffic", "weakTLSVersion"])),
        Refusal("a rule reading findings without tool coverage", .missingToolCoverage(requirement: "O.Ntwk_1"), first("toolCoverage", nil)),
        Refusal("a rule reading findings with blank tool coverage", .missingToolCoverage(requirement: "O.Ntwk_1"), first("toolCoverage", " ")),
    ]

    @Test("a catalogue is refused with the first failing check's reason", arguments: refusals)
    func refusal(_ refusal: Refusal) {
        var json = Self.base()
        refusal.change(&json)
        #expect(throws: refusal.error) { try Self.load(json) }
        #expect(!refusal.error.description.isEmpty && !refusal.error.description.lowercased().contains("pass"))
    }

    @Test("bytes that are not a JSON object, or a field of the wrong type, are malformed, saying where")
    func malformed() throws {
        for data in [Data("{".utf8), Data("[1]".utf8), Data("".utf8)] {
            let error = #expect(throws: RequirementCatalogueError.self) { try RequirementCatalogue(data: data) }
            guard case .malformed = error else {
                Issue.record("\(String(describing: error)) is not malformed")
                continue
            }
        }
        var json = Self.base()
        json["identifier"] = 5
        #expect(throws: RequirementCatalogueError.malformed("identifier is not String")) { try Self.load(json) }
        json = Self.base()
        json["formatVersion"] = "1"
        #expect(throws: RequirementCatalogueError.malformed("formatVersion is not Int")) { try Self.load(json) }
    }

    @Test("a small catalogue loads: source, TLS minimum as a policy, requirements in order, digest kept")
    func loads() throws {
        let catalogue = try Self.load(Self.base())
        #expect(catalogue.identifier == "test-1")
        #expect(catalogue.source == CatalogueSource(document: "Doc", title: "A document", version: "1.0", date: "2024-02-29",
                                                    sha256: String(repeating: "0123456789abcdef", count: 4)))
        #expect(catalogue.policy.minimumTLSVersion == .tls12 && catalogue.tlsSource == "Somewhere §1")
        #expect(catalogue.requirements == [
            Requirement(id: "O.Ntwk_1", title: "Title of O.Ntwk_1", rule: .contraryFindings([.cleartextTraffic]), toolCoverage: "What the tool sees."),
            Requirement(id: "O.Ntwk_3", title: "Title of O.Ntwk_3", rule: .outsideToolScope),
        ])
        for (text, version) in [("1.0", TLSProtocolVersion.tls10), ("1.1", .tls11), ("1.3", .tls13)] {
            var json = Self.base()
            Self.tls("minimumVersion", text)(&json)
            #expect(try Self.load(json).policy.minimumTLSVersion == version)
        }
    }

    @Test("a digest, an aspect and a test depth may be left out; given, they are read")
    func optionalFields() throws {
        var json = Self.base()
        Self.source("sha256", nil)(&json)
        #expect(try Self.load(json).source.sha256 == nil)
        Self.first("aspect", ["number": 9, "name": "Network"] as JSON)(&json)
        Self.first("testDepth", "EXAMINE")(&json)
        let requirement = try Self.load(json).requirements[0]
        #expect(requirement.aspect == RequirementAspect(number: 9, name: "Network") && requirement.testDepth == .examine)
        #expect(RequirementTestDepth.allCases.map(\.rawValue) == ["CHECK", "EXAMINE"])
    }

    @Test("keys the format does not know are ignored, at every level")
    func unknownKeysIgnored() throws {
        var json = Self.base()
        json["publisher"] = "someone"
        Self.source("url", "https://example.invalid/doc.pdf")(&json)
        Self.tls("note", "n")(&json)
        Self.first("severity", 3)(&json)
        Self.first("aspect", ["number": 1, "name": "A", "extra": true] as JSON)(&json)
        #expect(try Self.load(json).requirements.count == 2)
    }

    @Test("the shipped catalogue loads and maps each requirement exactly as audit.md says")
    func shippedCatalogue() throws {
        let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: "tr-03161-1_3.0")
        #expect(catalogue.identifier == "tr-03161-1_3.0")
        #expect(catalogue.source.document == "BSI TR-03161-1" && catalogue.source.version == "3.0" && catalogue.source.date == "2024-03-25")
        // The PDF's digest was not verified here, so none is shipped rather than a made-up one.
        #expect(catalogue.source.sha256 == nil)
        #expect(catalogue.policy.minimumTLSVersion == .tls12 && catalogue.tlsSource == "BSI TR-02102-2 v2026-01 §3.2")
        let rules = catalogue.requirements.map { ($0.id, $0.rule) }
        #expect(rules.map(\.0) == ["O.Purp_3", "O.Purp_8", "O.Ntwk_1", "O.Ntwk_2", "O.Ntwk_3", "O.Ntwk_4", "O.Ntwk_5", "O.Ntwk_6",
                                   "O.Ntwk_7", "O.Ntwk_8"])
        #expect(rules.map(\.1) == [
            .contraryFindings([.activityBeforeConsent]), .contraryFindings([.hostNotInAllowlist, .unnamedFlow]),
            .contraryFindings([.cleartextTraffic]), .contraryFindings([.weakTLSVersion]), .outsideToolScope,
            .contraryAndSupportingFindings(contrary: [.pinningAbsent], supporting: [.pinningObserved]),
            .outsideToolScope, .outsideToolScope, .outsideToolScope, .outsideToolScope,
        ])
        for requirement in catalogue.requirements {
            #expect((requirement.rule.check != nil) == (requirement.toolCoverage != nil), "\(requirement.id)")
            // Titles are ours and say so; the document's are not transcribed.
            #expect(requirement.title.contains("TunnelVision"), "\(requirement.id)")
            #expect(requirement.aspect == nil && requirement.testDepth == nil)
        }
    }
}
