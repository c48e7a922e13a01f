import Foundation

/// When consent was marked in a session: its earliest and latest `consentGiven` markers. A flow
/// that began before the earliest began before consent; one that began at the latest or after,
/// after it; one in between cannot be placed.
package struct ConsentInterval: Sendable, Hashable {
    package let earliest: Date
    package let latest: Date

    /// Nil without an instant.
    package init?(instants: some Sequence<Date>) {
        guard let earliest = instants.min(), let latest = instants.max() else { return nil }
        self.earliest = earliest
        self.latest = latest
    }

    /// The `consentGiven` markers of session `sessionID` among `markers`; nil when there is none.
    /// Other kinds, and other sessions' markers, say nothing about this session's consent.
    package init?(markers: [SessionMarker], sessionID: Int64) {
        self.init(instants: markers.lazy.filter { $0.sessionID == sessionID && $0.kind == .consentGiven }.map(\.date))
    }
}
