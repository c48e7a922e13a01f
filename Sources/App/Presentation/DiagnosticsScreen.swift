/// What the diagnostics screen (and `tunnelvision diagnostics`) shows, built by
/// `DiagnosticsPresentation.screen`: one sentence at the head, the resolver's warning above it when
/// it has one, then the counters it was read from, section by section.
package struct DiagnosticsScreen: Sendable, Equatable {
    package let isMonitoring: Bool
    package let headline: DiagnosticsHeadline
    /// nil when name resolution has nothing to warn about.
    package let resolverNotice: DiagnosticsHeadline?
    package let sections: [DiagnosticsSection]
}

/// A verdict and its sentence: `verdict` is a stable identifier for scripts, `text` is for people.
package struct DiagnosticsHeadline: Sendable, Equatable {
    package let verdict: String
    package let text: String
}

/// A group of counters that answers one question, with the footer that reads them when it has one.
package struct DiagnosticsSection: Sendable, Equatable {
    /// Stable identifier (`namesFromLookups`), the prefix of its rows' keys.
    package let key: String
    package let title: String
    package let rows: [DiagnosticsRow]
    package let note: String?
}

/// One reading: `key` is unique on the screen, `value` as a person reads it (a volume as a volume).
package struct DiagnosticsRow: Sendable, Equatable {
    package let key: String
    package let label: String
    package let value: String
}
