/// What the diagnostics screen (and `tunnelvision diagnostics`) shows, built by
/// `DiagnosticsPresentation.screen`: one sentence at the head, the resolver's warning above it when
/// it has one, then the counters it was read from, section by section.
public struct DiagnosticsScreen: Sendable, Equatable {
    public let isMonitoring: Bool
    public let headline: DiagnosticsHeadline
    /// nil when name resolution has nothing to warn about.
    public let resolverNotice: DiagnosticsHeadline?
    public let sections: [DiagnosticsSection]
}

/// A verdict and its sentence: `verdict` is a stable identifier for scripts, `text` is for people.
public struct DiagnosticsHeadline: Sendable, Equatable {
    public let verdict: String
    public let text: String
}

/// A group of counters that answers one question, with the footer that reads them when it has one.
public struct DiagnosticsSection: Sendable, Equatable {
    /// Stable identifier (`namesFromLookups`), the prefix of its rows' keys.
    public let key: String
    public let title: String
    public let rows: [DiagnosticsRow]
    public let note: String?
}

/// One reading: `key` is unique on the screen, `value` as a person reads it (a volume as a volume).
public struct DiagnosticsRow: Sendable, Equatable {
    public let key: String
    public let label: String
    public let value: String
}
