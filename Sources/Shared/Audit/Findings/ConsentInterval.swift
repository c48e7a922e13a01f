import Foundation

/// When consent was marked in a session: its earliest and latest `consentGiven` markers. A flow
/// that began before the earliest began before consent; one that began at the latest or after,
/// after it; one in between cannot be placed.
public struct ConsentInterval: Sendable, Hashable {
    public let earliest: Date
    public let latest: Date

    /// Nil without an instant.
    public init?(instants: some Sequence<Date>) {
        guard let earliest = instants.min(), let latest = instants.max() else { return nil }
        self.earliest = earliest
        self.latest = latest
    }

    /// The `consentGiven` markers of session `sessionID` among `markers`; nil when there is none.
    /// Other kinds, and other sessions' markers, say nothing about this session's consent.
    public init?(markers: [SessionMarker], sessionID: Int64) {
        self.init(instants: markers.lazy.filter { $0.sessionID == sessionID && $0.kind == .consentGiven }.map(\.date))
    }
}
