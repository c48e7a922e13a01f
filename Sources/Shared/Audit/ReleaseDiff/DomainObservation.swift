/// What one session's flows say of one domain (audit.md § Release diff). Flow ids are in the
/// order the session saw the flows (first packet, then id).
package struct DomainObservation: Sendable, Hashable {
    /// Normalised: lowercase, no trailing dot (`DomainPattern.normalised(host:)`).
    package let host: String
    /// Flows that are this domain's for certain: it announced the name (SNI), or DNS gave its
    /// address this name and no other.
    package internal(set) var flowIDs: [Int64] = []
    /// Flows whose address DNS gave this name among others: each may be this domain's or another
    /// candidate's, so none of them makes the domain seen.
    package internal(set) var candidateFlowIDs: [Int64] = []
    /// The TLS versions the certain flows negotiated; candidate flows are not read, since their
    /// versions may be another domain's.
    package internal(set) var tlsSightings: [TLSVersionSighting] = []
    /// Certain flows with no TLS version read (plain traffic, a refusal, a handshake not seen).
    package internal(set) var flowIDsWithoutTLSReading: [Int64] = []

    init(host: String) {
        self.host = host
    }

    /// The session surely reached this domain.
    package var isSeen: Bool { !flowIDs.isEmpty }

    /// The distinct versions `negotiator` was seen to agree, in ascending wire value.
    package func versions(negotiatedBy negotiator: TLSNegotiator) -> [TLSProtocolVersion] {
        Set(tlsSightings.lazy.filter { $0.negotiator == negotiator }.map(\.version)).sorted { $0.rawValue < $1.rawValue }
    }
}
