/// Why the TLS version check could not assess a flow (audit.md § TLS version).
package enum TLSVersionGap: CoverageGap {
    /// The tunnel's own connection used the minimum or newer, but what the app offered does not
    /// show that the app would use nothing older with another server.
    case appNegotiationNotObserved(ClientOfferGap)
    /// The server chose a version that was never published (a draft, say): it has no place in the order.
    case unrecognisedVersion
    /// The server answered with an alert instead of a ServerHello: no version was chosen.
    case serverRefused
    /// Only the client's QUIC version was read: the server may have moved it.
    case quicVersionOnlyProposed
    /// The server used a QUIC version not known to carry TLS 1.3.
    case unrecognisedQUICVersion
    /// The flow shows TLS, but the server's answer was not read.
    case serverAnswerNotRead

    package var identifier: String {
        switch self {
        case .appNegotiationNotObserved: "appNegotiationNotObserved"
        case .unrecognisedVersion: "unrecognisedVersion"
        case .serverRefused: "serverRefused"
        case .quicVersionOnlyProposed: "quicVersionOnlyProposed"
        case .unrecognisedQUICVersion: "unrecognisedQUICVersion"
        case .serverAnswerNotRead: "serverAnswerNotRead"
        }
    }

    package var statement: String {
        switch self {
        case let .appNegotiationNotObserved(offer):
            "The tunnel's own connection to the server used the minimum TLS version or newer, but the app's "
                + "own negotiation was not observed: \(offer.statement)"
        case .unrecognisedVersion:
            "The server chose a TLS version that was never published, which cannot be ordered against the minimum."
        case .serverRefused:
            "The server answered with an alert instead of a ServerHello, so no TLS version was negotiated."
        case .quicVersionOnlyProposed:
            "Only the client's proposed QUIC version was read, and the server may have chosen another."
        case .unrecognisedQUICVersion:
            "The QUIC version is not one known to carry TLS 1.3, so its TLS version is not known."
        case .serverAnswerNotRead:
            "The connection shows signs of TLS, but the server's answer was not read."
        }
    }
}

/// Why what the app offered in its ClientHello does not show its own negotiation: only an
/// exhaustive list of published versions, none older than the minimum, does. Raw values are
/// stable identifiers.
package enum ClientOfferGap: String, Sendable, Hashable, CaseIterable {
    /// The app's ClientHello was not read.
    case offerNotRead
    /// The hello had no `supported_versions`: its version is a ceiling, not a list.
    case versionsNotListed
    /// The list held nothing but GREASE.
    case nothingListed
    /// The list held a version that was never published, which cannot be ordered.
    case unpublishedVersionOffered
    /// The list held a version older than the minimum, which another server could choose.
    case olderVersionOffered

    package var identifier: String { rawValue }

    /// Whether `offer` shows the app's negotiation against `minimum`, and if not why not.
    init?(offer: ClientTLSOffer?, minimum: TLSProtocolVersion) {
        guard let offer else { self = .offerNotRead; return }
        guard case let .listed(versions) = offer.versions else { self = .versionsNotListed; return }
        if versions.isEmpty {
            self = .nothingListed
        } else if !versions.allSatisfy(\.isPublished) {
            self = .unpublishedVersionOffered
        } else if versions.contains(where: { $0.isOlder(than: minimum) }) {
            self = .olderVersionOffered
        } else {
            return nil
        }
    }

    package var statement: String {
        switch self {
        case .offerNotRead: "the app's ClientHello was not read."
        case .versionsNotListed: "the app's ClientHello named only a highest version, not the list of versions it accepts."
        case .nothingListed: "the app's ClientHello listed no TLS version."
        case .unpublishedVersionOffered: "the app's ClientHello listed a TLS version that was never published."
        case .olderVersionOffered: "the app's ClientHello also offered a TLS version older than the minimum."
        }
    }
}
