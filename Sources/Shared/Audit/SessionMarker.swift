import Foundation

/// What a marker says happened in a session: the three a person places from anywhere, or their
/// own words.
public enum SessionMarkerKind: Sendable, Hashable {
    case consentGiven
    case loggedIn
    case loggedOut
    case custom(String)
}

/// A moment marked in an audit session, to the instant it was placed.
public struct SessionMarker: Sendable, Hashable, Identifiable {
    public let id: Int64
    public let sessionID: Int64
    public let date: Date
    public let kind: SessionMarkerKind

    public init(id: Int64, sessionID: Int64, date: Date, kind: SessionMarkerKind) {
        self.id = id
        self.sessionID = sessionID
        self.date = date
        self.kind = kind
    }
}
