import Foundation

/// A requirement catalogue (audit.md § Requirement catalogue): which document it transcribes, the
/// TLS minimum the findings use and where that comes from, and each requirement with the rule that
/// ties it to findings. Read from JSON, checked whole: a catalogue is either usable or refused.
///
/// The format (version 1); keys not listed are ignored:
/// ```
/// { "formatVersion": 1, "identifier": "…",
///   "source": { "document", "title", "version", "date": "yyyy-MM-dd", "sha256"?: 64 lowercase hex },
///   "tls": { "minimumVersion": "1.0" | "1.1" | "1.2" | "1.3", "source" },
///   "requirements": [ { "id", "aspect"?: { "number", "name" }, "title", "testDepth"?: "CHECK" | "EXAMINE",
///                       "rule": "outsideToolScope" | "contraryFindings" | "contraryAndSupportingFindings",
///                       "contraryKinds"?, "supportingKinds"?: [FindingKind raw value], "toolCoverage"? } ] }
/// ```
/// `sha256`, `aspect` and `testDepth` may be left out where the catalogue's author could not
/// verify them against the document; when given they must be well formed.
package struct RequirementCatalogue: Sendable, Hashable {
    /// The only format this build reads.
    package static let formatVersion = 1

    package let identifier: String
    package let source: CatalogueSource
    /// Where the TLS minimum comes from, `BSI TR-02102-2 v2026-01 §3.2`.
    package let tlsSource: String
    package let policy: FindingsPolicy
    /// In the document's order.
    package let requirements: [Requirement]

    package init(identifier: String, source: CatalogueSource, tlsSource: String, policy: FindingsPolicy,
                requirements: [Requirement]) {
        self.identifier = identifier
        self.source = source
        self.tlsSource = tlsSource
        self.policy = policy
        self.requirements = requirements
    }

    /// Reads and checks a catalogue; the first failing check, in the format's order, is the refusal.
    package init(data: Data) throws(RequirementCatalogueError) {
        let catalogue: CatalogueJSON
        do {
            _ = try JSONText.parse(data)
            let version = try JSONDecoder().decode(FormatVersionJSON.self, from: data).formatVersion
            // The version first: another format is refused as such, not for whatever else differs.
            guard version == Self.formatVersion else { throw RequirementCatalogueError.unsupportedFormatVersion(version) }
            catalogue = try JSONDecoder().decode(CatalogueJSON.self, from: data)
        } catch let error as RequirementCatalogueError {
            throw error
        } catch {
            throw .malformed(JSONText.reason(error))
        }
        self = try catalogue.checked()
    }

    /// The TLS minimum as the format writes it.
    static let minimumVersions: [String: TLSProtocolVersion] = ["1.0": .tls10, "1.1": .tls11, "1.2": .tls12, "1.3": .tls13]
}
