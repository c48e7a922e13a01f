import Foundation

/// What a marker says happened in a session: the three a person places from anywhere, or their
/// own words.
public enum SessionMarkerKind: Sendable, Hashable {
    case consentGiven
    case loggedIn
    case loggedOut
    case custom(String)

    /// `consentGiven`, `loggedIn`, `loggedOut`, `custom`: stable, the evidence bundle's.
    public var identifier: String {
        switch self {
        case .consentGiven: "consentGiven"
        case .loggedIn: "loggedIn"
        case .loggedOut: "loggedOut"
        case .custom: "custom"
        }
    }

    /// A custom marker's words; nil for the three fixed ones.
    public var label: String? {
        if case let .custom(label) = self { return label }
        return nil
    }
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
