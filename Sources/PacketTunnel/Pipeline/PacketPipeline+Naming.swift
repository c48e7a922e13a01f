import Foundation
import Shared

/// Naming on the per-packet path, for what no TCP stream carries: DNS replies teach the
/// address-to-name map before any flow is touched, a new flow takes its name from that map, and
/// a QUIC flow's Initials are opened for the ClientHello and the ServerHello inside
/// (packet-parsing spec, "Names from DNS" and "QUIC long header").
extension PacketPipeline {
    /// QUIC flows whose hello is being read at once; more wait their turn unread.
    static let maxQUICReaders = 256

    /// What a UDP datagram said before its flow was counted: a QUIC long header's version, to
    /// travel with the packet, and what a DNS message on port 53 tells its flow.
    struct DatagramReading {
        var quic: QUICVersionReading?
        var dns: FlowFact?
    }

    /// Reads what a UDP datagram says before its flow is counted: a DNS reply's addresses (for
    /// the map) and question (for its flow), a query's question, a QUIC long header's version.
    func readDatagram(_ parsed: ParsedPacket, _ packet: UnsafeRawBufferPointer, direction: Direction,
                      now: UInt64) -> DatagramReading? {
        guard let udp = parsed.udp else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: packet[udp.payloadRange])
        // DNS is read only over UDP port 53 (no DNS over TCP, DoT or DoH).
        if direction == .inbound && udp.sourcePort == WellKnownPort.dns {
            return DatagramReading(dns: learnNames(from: payload, now: now))
        }
        if direction == .outbound && udp.destinationPort == WellKnownPort.dns {
            return DatagramReading(dns: (try? DNSMessageParser.parse(payload)).flatMap(DNSExchange.init(query:)).map { .dnsQuery($0) })
        }
        // A local 443 is a server here, not a client: the remote port is the one that tells.
        let remotePort = direction == .outbound ? udp.destinationPort : udp.sourcePort
        guard let version = QUICLongHeader.connectionVersion(in: payload, remotePort: remotePort) else { return nil }
        counters.quicVersionsObserved &+= 1
        return DatagramReading(quic: QUICVersionReading(version: version, source: direction == .outbound ? .client : .server))
    }

    /// Teaches the map a DNS reply's addresses; returns what the reply tells its own flow, when
    /// `tellingItsFlow` (a reader that does not count the flow has no use for it).
    @discardableResult
    func learnNames(from payload: UnsafeRawBufferPointer, now: UInt64, tellingItsFlow: Bool = true) -> FlowFact? {
        guard let message = try? DNSMessageParser.parse(payload) else {
            counters.dnsNames.unreadableDatagrams &+= 1
            return nil
        }
        counters.dnsNames.count(resolvedNames.ingest(message, at: now))
        guard tellingItsFlow, let echoed = message.questions.first, let name = echoed.name.normalizedDomain else { return nil }
        return .dnsReply(question: name, questionType: echoed.type.rawValue, reply: DNSReply(message))
    }

    /// The name a flow to `remote` begins with, if DNS gave that address one.
    func resolvedName(for remote: IPAddress, now: UInt64) -> ResolvedFlowName? {
        resolvedNames.name(for: remote, at: now).map(ResolvedFlowName.init)
    }

    /// Feeds a QUIC long-header datagram to its flow's handshake reader: the client's hello
    /// names the flow and says what it offered, the server's Initials what it chose. Only a
    /// client's datagram begins a reading: the server's keys come from it.
    func readQUICHandshake(_ key: FlowKey, _ parsed: ParsedPacket, _ packet: UnsafeRawBufferPointer,
                           from source: QUICVersionSource) {
        guard let udp = parsed.udp else { return }
        var reader: QUICHandshakeReader
        if let existing = quicReaders[key] {
            reader = existing
        } else {
            guard source == .client, quicReaders.count < Self.maxQUICReaders else { return }
            reader = QUICHandshakeReader()
        }
        let datagram = Data(UnsafeRawBufferPointer(rebasing: packet[udp.payloadRange]))
        switch source {
        case .client: count(clientInitials: reader.readClient(datagram))
        case .server: count(serverInitials: reader.readServer(datagram))
        }
        var facts: [FlowFact] = []
        if let outcome = reader.takeClientOutcome() {
            facts += clientFacts(outcome)
            if let fingerprints = reader.client.fingerprints { facts.append(.clientFingerprints(fingerprints)) }
        }
        if let outcome = reader.takeServerOutcome() {
            facts += serverFacts(outcome)
            if case .answered = outcome, let fingerprints = reader.server.fingerprints { facts.append(.serverFingerprints(fingerprints)) }
        }
        observe(facts, for: key)
        if reader.isSettled {
            quicReaders[key] = nil
            flowTable.settleQUICHandshake(of: key)
        } else {
            quicReaders[key] = reader
        }
    }

    private func count(clientInitials counts: QUICInitialCounts) {
        counters.quicNames.initialsSeen &+= UInt64(counts.initialsSeen)
        counters.quicNames.initialsOpened &+= UInt64(counts.initialsOpened)
        counters.quicNames.initialsUnopenable &+= UInt64(counts.initialsUnopenable)
    }

    private func count(serverInitials counts: QUICInitialCounts) {
        counters.quicNames.serverInitialsUnopenable &+= UInt64(counts.initialsUnopenable)
    }

    private func clientFacts(_ outcome: QUICClientHelloReader.Outcome) -> [FlowFact] {
        switch outcome {
        case .needMoreInitials:
            return []
        case .named(let name, let offer):
            counters.quicNames.flowsNamed &+= 1
            return [.serverName(name)] + (offer.map { [.clientOffer($0)] } ?? [])
        case .unnamed(let offer):
            counters.quicNames.flowsWithoutName &+= 1
            return offer.map { [.clientOffer($0)] } ?? []
        case .incomplete:
            counters.quicNames.helloIncomplete &+= 1
            return []
        }
    }

    private func serverFacts(_ outcome: QUICServerHelloReader.Outcome) -> [FlowFact] {
        switch outcome {
        case .needMoreInitials, .incomplete:
            return []
        case .answered(let negotiated):
            counters.quicNames.serverAnswersRead &+= 1
            return [.serverAnswer(.negotiated(negotiated))]
        case .refused(let alert):
            counters.quicNames.serverAnswersRead &+= 1
            return [.serverAnswer(.refused(alert: alert))]
        }
    }

    /// A flow ended: a hello still being read never completed.
    func forgetQUICReader(_ key: FlowKey) {
        guard let reader = quicReaders.removeValue(forKey: key) else { return }
        if reader.client.outcome == .needMoreInitials { counters.quicNames.helloIncomplete &+= 1 }
    }

    /// Facts a scanner learned about a live flow (the relay's TCP scanners, the QUIC reader): they
    /// go into the flow table, and — when each packet is recorded — the flow's record into the
    /// batch at once, so the history has them even if no other packet follows. (Offline, the
    /// record goes out when the flow ends or the capture does, facts and all.)
    package func observe(_ facts: [FlowFact], for key: FlowKey) {
        guard !facts.isEmpty else { return }
        for fact in facts { flowTable.apply(fact, for: key) }
        if config.recordsEachPacket, let record = flowTable.record(for: key) { place(record) }
    }

    /// The program behind the lifetime of `key` that began at `firstSeen`. When that lifetime
    /// has left the table (or another began on the 5-tuple, not the same socket's), the answer
    /// has no record to join and the flow keeps "not asked".
    package func observeProgram(_ attribution: ProgramAttribution, for key: FlowKey, firstSeen: UInt64) {
        guard flowTable.record(for: key)?.firstSeen == firstSeen else { return }
        observe([.program(attribution)], for: key)
    }
}
