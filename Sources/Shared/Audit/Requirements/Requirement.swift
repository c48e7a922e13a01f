/// One requirement of a catalogue (audit.md § Requirement catalogue) and how the findings bear on it.
package struct Requirement: Sendable, Hashable, Identifiable {
    /// The document's identifier, `O.Ntwk_1`.
    package let id: String
    /// The part of the document it belongs to; nil when the catalogue does not state it.
    package let aspect: RequirementAspect?
    /// The title a report shows beside the id: the document's own where the catalogue transcribes
    /// it, else a summary the catalogue marks as its own.
    package let title: String
    /// How deeply the document asks it to be tested; nil when the catalogue does not state it.
    package let testDepth: RequirementTestDepth?
    package let rule: RequirementRule
    /// What the tool can and cannot observe for this requirement; present whenever the rule reads findings.
    package let toolCoverage: String?

    package init(id: String, aspect: RequirementAspect? = nil, title: String, testDepth: RequirementTestDepth? = nil,
                rule: RequirementRule, toolCoverage: String? = nil) {
        self.id = id
        self.aspect = aspect
        self.title = title
        self.testDepth = testDepth
        self.rule = rule
        self.toolCoverage = toolCoverage
    }
}

/// A numbered part of the document (an aspect under test).
package struct RequirementAspect: Sendable, Hashable {
    package let number: Int
    package let name: String

    package init(number: Int, name: String) {
        self.number = number
        self.name = name
    }
}

/// The document's test depth. Raw values are the catalogue format's.
package enum RequirementTestDepth: String, Sendable, Hashable, CaseIterable {
    case check = "CHECK"
    case examine = "EXAMINE"
}
