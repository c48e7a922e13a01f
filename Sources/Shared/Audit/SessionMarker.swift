import Foundation

/// What a marker says happened in a session: the three a person places from anywhere, or their
/// own words.
package enum SessionMarkerKind: Sendable, Hashable {
    case consentGiven
    case loggedIn
    case loggedOut
    case custom(String)

    /// `consentGiven`, `loggedIn`, `loggedOut`, `custom`: stable, the evidence bundle's.
    package var identifier: String {
        switch self {
        case .consentGiven: "consentGiven"
        case .loggedIn: "loggedIn"
        case .loggedOut: "loggedOut"
        case .custom: "custom"
        }
    }

    /// A custom marker's words; nil for the three fixed ones.
    package var label: String? {
        if case let .custom(label) = self { return label }
        return nil
    }
}

/// A moment marked in an audit session, to the instant it was placed.
package struct SessionMarker: Sendable, Hashable, Identifiable {
    package let id: Int64
    package let sessionID: Int64
    package let date: Date
    package let kind: SessionMarkerKind

    package init(id: Int64, sessionID: Int64, date: Date, kind: SessionMarkerKind) {
        self.id = id
        self.sessionID = sessionID
        self.date = date
        self.kind = kind
    }
}
