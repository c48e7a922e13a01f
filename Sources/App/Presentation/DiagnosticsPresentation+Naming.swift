import Shared

extension DiagnosticsPresentation {
    /// Could the tunnel read what was looked up? Not whether names resolve (the resolver verdict):
    /// with encrypted DNS that works and this cannot, and saying so keeps a session of unnamed
    /// connections from reading as a fault. The pipeline's counters alone.
    package enum DNSNamingVerdict: String, Sendable, Equatable, CaseIterable {
        case naming, learning, nothingToLearn, unreadable, nothingToRead, noTraffic
    }

    /// From what refutes most to what refutes least: one named flow proves the chain, one readable
    /// message proves the dissector works.
    package static func dnsNamingVerdict(for pipeline: PipelineStats) -> DNSNamingVerdict {
        let names = pipeline.dnsNames
        if names.flowsNamed > 0 { return .naming }
        if names.repliesRecorded > 0 { return .learning }
        if repliesIgnored(names) > 0 { return .nothingToLearn }
        if names.unreadableDatagrams > 0 { return .unreadable }
        if pipeline.packetsHandled > 0 { return .nothingToRead }
        return .noTraffic
    }

    /// The footer of Names from lookups; none without traffic. No figures: they are in the rows.
    package static func dnsNamingNote(for verdict: DNSNamingVerdict) -> String? {
        switch verdict {
        case .naming:
            "Connections are named from the lookups before them: the name asked for goes to the address it returned."
        case .learning:
            "Addresses were learned from lookups; no connection has gone to one of them yet."
        case .nothingToLearn:
            "Lookups were read and none returned an address (errors, or questions of another kind), so none could name a connection."
        case .unreadable:
            "Datagrams came from the DNS port and none of them read as a DNS message."
        case .nothingToRead:
            "No lookup crossed the tunnel in the clear: the programs use encrypted DNS (or DNS over TCP, which is not read), so connections are named only from what they announce."
        case .noTraffic:
            nil
        }
    }

    /// The six reasons a readable reply taught nothing, added up: apart they are six rows a healthy
    /// session fills anyway.
    package static func repliesIgnored(_ names: DNSNameStats) -> UInt64 {
        names.notAResponse &+ names.unsupportedOpcode &+ names.errorResponse &+ names.unsupportedQuestion
            &+ names.unusableName &+ names.noAddresses
    }

    /// Do QUIC connections carry the host their client announced? Apart from lookups: a QUIC flow
    /// may carry the name asked of DNS and not its own.
    package enum QUICNamingVerdict: String, Sendable, Equatable, CaseIterable {
        case naming, nothingAnnounced, notReadable, reading, notOpening, nothingToRead, noTraffic
    }

    package static func quicNamingVerdict(for pipeline: PipelineStats) -> QUICNamingVerdict {
        let quic = pipeline.quicNames
        if quic.flowsNamed > 0 { return .naming }
        if quic.flowsWithoutName > 0 { return .nothingAnnounced }
        if quic.initialsOpened > 0 { return quic.helloIncomplete > 0 ? .notReadable : .reading }
        if quic.initialsSeen > 0 || quic.initialsUnopenable > 0 { return .notOpening }
        if pipeline.packetsHandled > 0 { return .nothingToRead }
        return .noTraffic
    }

    /// The footer of Names from QUIC. Each unnamed case says what the connections keep; the normal
    /// case says where the tunnel stops reading.
    package static func quicNamingNote(for verdict: QUICNamingVerdict) -> String? {
        let keeps = "those connections are forwarded untouched and keep the name a lookup gave their address, if any"
        return switch verdict {
        case .naming:
            "QUIC connections carry the host their client announced. The tunnel opens only each side's opening packets, to read it and what the server chose; the connection itself is never decrypted."
        case .nothingAnnounced:
            "Opening messages of QUIC connections were read whole and none named a host: \(keeps)."
        case .notReadable:
            "Opening packets of QUIC connections were opened and no opening message was read to its end: \(keeps)."
        case .reading:
            "Opening packets of QUIC connections were opened; no connection has a name from them yet."
        case .notOpening:
            "Opening packets of QUIC connections were seen and none could be opened (an unknown version, or protection that did not verify): \(keeps)."
        case .nothingToRead:
            "Nothing spoke QUIC through the tunnel: no client's opening packet was seen."
        case .noTraffic:
            nil
        }
    }
}
