/// How a flow the encryption check saw as encrypted was encrypted. Raw values are stable identifiers.
package enum EncryptedProtocol: String, Sendable, Hashable, CaseIterable {
    case tls
    case quic
}

/// The encryption check of one flow (audit.md § Encryption): cleartext only from what was
/// observed — an HTTP request line — never from a port; encrypted only from a reading that only
/// TLS or QUIC gives. DNS on port 53 is no cleartext finding: only HTTP is recognised.
package enum EncryptionAssessment: Sendable, Hashable {
    case encrypted(EncryptedProtocol)
    case cleartext(CleartextProtocol)
    case notAssessed(EncryptionGap)
    case notApplicable

    package init(of flow: StoredFlow) {
        if flow.streamOpening == .httpRequest {
            self = .cleartext(.http)
        } else if flow.key.proto == .tcp {
            self = Self(stream: flow)
        } else if flow.key.proto == .udp {
            self = Self(datagrams: flow.quic)
        } else {
            self = .notApplicable
        }
    }

    private init(stream flow: StoredFlow) {
        // `encrypted` is no reading: the port alone gives it. An inspection outcome is one.
        let inspectionOutcome = [.inspected, .notInspectable, .inspectionFailed].contains(flow.tlsStatus)
        if flow.streamOpening?.carriesTLS == true || flow.clientTLS != nil || flow.serverTLS != nil || flow.leafTLS != nil
            || inspectionOutcome {
            self = .encrypted(.tls)
        } else if flow.streamOpening == .unrecognised {
            self = .notAssessed(.unrecognisedOpening)
        } else {
            // Sessions recorded before openings were kept (schema v14) land here too.
            self = .notAssessed(.openingNotRead)
        }
    }

    private init(datagrams quic: QUICVersionReading?) {
        guard let quic else {
            self = .notAssessed(.datagramsNotRead)
            return
        }
        self = quic.version.carriedTLSVersion != nil ? .encrypted(.quic) : .notAssessed(.unrecognisedQUICVersion)
    }

    /// Where the flow lands in the check's coverage.
    package var outcome: CheckOutcome<EncryptionGap> {
        switch self {
        case .encrypted: .satisfied
        case let .cleartext(cleartextProtocol): .finding(.cleartextTraffic(cleartextProtocol))
        case let .notAssessed(gap): .unassessed(gap)
        case .notApplicable: .notApplicable
        }
    }
}
