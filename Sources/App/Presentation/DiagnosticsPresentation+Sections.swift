import Shared

extension DiagnosticsPresentation {
    /// The whole screen: the inspection headline, the resolver's notice, and the sections in their
    /// order — what the relay did only when it answered (absent, never zeroed), the names announced
    /// (TCP, then QUIC) above the names asked for, and errors only when there is one. `failure` is
    /// why the last query brought no newer counters.
    package static func screen(stats: TunnelStats?, isMonitoring: Bool, failure: String? = nil) -> DiagnosticsScreen {
        let shown = isMonitoring ? stats : nil
        let sections: [DiagnosticsSection]
        if let shown {
            sections = self.sections(for: shown, failure: failure)
        } else {
            // Not live: nothing, a failure included — it belonged to the session that ended.
            sections = isMonitoring ? errorsSection(failure: failure, pipeline: nil) : []
        }
        return DiagnosticsScreen(
            isMonitoring: isMonitoring,
            headline: headline(for: verdict(for: shown, isMonitoring: isMonitoring)),
            resolverNotice: resolverNotice(for: resolverVerdict(for: shown, isMonitoring: isMonitoring)),
            sections: sections)
    }

    static func sections(for stats: TunnelStats, failure: String?) -> [DiagnosticsSection] {
        var sections: [DiagnosticsSection] = []
        if let inspection = stats.relay?.inspection { sections += [inspectionSection(inspection), inspectionReasonsSection(inspection)] }
        sections.append(trafficSection(stats.pipeline))
        if let shell = stats.shell { sections.append(deviceSection(shell.device)) }
        if let relay = stats.relay { sections.append(relaySection(relay)) }
        if let resolvers = stats.resolvers { sections.append(resolverSection(resolvers, relay: stats.relay)) }
        if let relay = stats.relay { sections.append(tcpNamesSection(relay)) }
        sections.append(quicNamesSection(stats.pipeline))
        sections.append(lookupNamesSection(stats.pipeline))
        sections += errorsSection(failure: failure, pipeline: stats.pipeline)
        return sections
    }

    static func inspectionSection(_ inspection: InspectionStats) -> DiagnosticsSection {
        section("inspection", "Looking inside secure traffic") { rows in
            rows.count("candidates", "secure connections that qualified", inspection.inspectionCandidates)
            rows.count("terminationsOpened", "taken over", inspection.terminationsOpened)
            rows.count("abandoned", "given up before being taken over", inspection.inspectionsAbandoned)
            rows.count("pinnedHostSkips", "left alone: the host is known not to be inspectable", inspection.pinnedHostSkips)
            rows.count("flowsInspected", "decrypted", inspection.flowsInspected)
            rows.count("flowsPinned", "refused this run's certificate (they pin, or trust a store this run did not reach)",
                       inspection.flowsPinned)
            rows.count("terminationsFailed", "broken by inspection", inspection.terminationsFailed)
        }
    }

    /// Every secure connection not inspected, or broken by inspection, once, by why: the reasons
    /// that have any, in the reasons' order; none yet is said, not left blank.
    static func inspectionReasonsSection(_ inspection: InspectionStats) -> DiagnosticsSection {
        let counted = inspection.byReason.all.filter { $0.count > 0 }
        return section("inspectionReasons", "Why secure connections were not inspected, or broke",
                       note: counted.isEmpty ? "None so far: no secure connection was left uninspected or broken." : nil) { rows in
            for (kind, count) in counted {
                rows.count(InspectionReasonWording.identifier(kind), InspectionReasonWording.label(kind), count)
            }
        }
    }

    static func trafficSection(_ pipeline: PipelineStats) -> DiagnosticsSection {
        section("traffic", "What was recorded") { rows in
            rows.count("packets", "packets from the monitored programs", pipeline.packetsHandled)
            rows.volume("volume", "their volume", pipeline.bytesHandled)
            rows.count("connectionsOpened", "connections opened", pipeline.flowsOpened)
            rows.count("connectionsClosed", "connections closed", pipeline.flowsClosed)
            rows.count("connectionsIdle", "connections ended idle", pipeline.flowsExpired)
            rows.count("connectionsEvicted", "connections given up to make room", pipeline.flowsEvicted)
            rows.count("connectionsRefused", "connections refused, the table full", pipeline.flowsRefusedAtCapacity)
            rows.count("unparseable", "packets dropped, unreadable", pipeline.packetsDroppedUnparseable)
            rows.count("noLocalAddress", "packets dropped, neither end this machine's", pipeline.packetsDroppedNoLocalAddress)
            rows.count("captured", "packets captured", pipeline.packetsCaptured)
            rows.count("historyBatches", "history writes", pipeline.storeBatchesWritten)
            rows.count("historyBatchesFailed", "history writes failed", pipeline.storeBatchesFailed)
            rows.count("liveFeedDrops", "live-feed records dropped (a slow reader)", pipeline.liveFeedDrops)
        }
    }

    static func relaySection(_ relay: RelayStats) -> DiagnosticsSection {
        section("relay", "What was forwarded") { rows in
            rows.count("tcpOpened", "TCP connections opened", relay.tcpFlowsOpened)
            rows.count("tcpClosed", "TCP connections closed", relay.tcpFlowsClosed)
            rows.count("udpOpened", "UDP flows opened", relay.udpFlowsOpened)
            rows.count("connectFailures", "connections that could not be opened", relay.connectFailures)
            rows.count("portUnreachableAnswers", "UDP datagrams answered port unreachable (nothing listened)",
                       relay.portUnreachableAnswers)
            rows.volume("sent", "sent", relay.bytesFromDevice)
            rows.volume("received", "received", relay.bytesToDevice)
            rows.count("segmentsRefused", "TCP segments refused (unreadable options)", relay.segmentsRefused)
            rows.count("emitterFailures", "packets that could not be written back", relay.emitterFailures)
        }
    }

    static func resolverSection(_ resolvers: ResolverStatus, relay: RelayStats?) -> DiagnosticsSection {
        section("resolvers", "Name resolution") { rows in
            rows.add("announced", "resolvers given to the monitored programs",
                     resolvers.announced.isEmpty ? "none" : resolvers.announced.joined(separator: ", "))
            rows.add("reportedAtStart", "resolvers this machine reported at start",
                     resolvers.reportedAtStart.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "could not be read")
            if let relay {
                rows.count("lookupsSent", "lookups sent", relay.dnsQueriesSent)
                rows.count("lookupsAnswered", "lookups answered", relay.dnsRepliesReceived)
            }
        }
    }

    static func tcpNamesSection(_ relay: RelayStats) -> DiagnosticsSection {
        section("namesFromTCP", "Names from TCP") { rows in
            rows.count("tls", "streams opened with a TLS handshake (its server name read)", relay.streamOpeningsTLS)
            rows.count("http", "streams opened with an HTTP request", relay.streamOpeningsHTTP)
            rows.count("other", "streams opened with something else", relay.streamOpeningsUnrecognised)
            rows.count("upgraded", "of those, switched to TLS after a plaintext exchange (STARTTLS)", relay.streamsUpgradedToTLS)
            rows.count("upgradesAbandoned", "plaintext exchanges followed and given up before any switch", relay.plaintextUpgradesAbandoned)
        }
    }

    static func quicNamesSection(_ pipeline: PipelineStats) -> DiagnosticsSection {
        let quic = pipeline.quicNames
        return section("namesFromQUIC", "Names from QUIC", note: quicNamingNote(for: quicNamingVerdict(for: pipeline))) { rows in
            rows.count("named", "connections named", quic.flowsNamed)
            rows.count("withoutName", "read whole, no host announced", quic.flowsWithoutName)
            rows.count("notRead", "not read to the end", quic.helloIncomplete)
            rows.count("initialsSeen", "opening packets seen", quic.initialsSeen)
            rows.count("initialsOpened", "opening packets opened", quic.initialsOpened)
            rows.count("initialsNotOpened", "opening packets not opened", quic.initialsUnopenable)
            rows.count("serverAnswersRead", "servers' answers read", quic.serverAnswersRead)
            rows.count("serverInitialsNotOpened", "servers' opening packets not opened", quic.serverInitialsUnopenable)
        }
    }

    static func lookupNamesSection(_ pipeline: PipelineStats) -> DiagnosticsSection {
        let names = pipeline.dnsNames
        return section("namesFromLookups", "Names from lookups", note: dnsNamingNote(for: dnsNamingVerdict(for: pipeline))) { rows in
            rows.count("repliesRecorded", "replies that gave addresses", names.repliesRecorded)
            rows.count("addressesLearned", "addresses learned", names.addressesLearned)
            rows.count("repliesIgnored", "replies with nothing to learn", repliesIgnored(names))
            rows.count("unreadable", "datagrams from the DNS port not readable", names.unreadableDatagrams)
            rows.count("connectionsNamed", "connections named", names.flowsNamed)
        }
    }

    /// Only when there is an error: the last query's failure, then what the recording reported.
    static func errorsSection(failure: String?, pipeline: PipelineStats?) -> [DiagnosticsSection] {
        let errors = section("errors", "Errors") { rows in
            if let failure { rows.add("query", "asking the tunnel", failure) }
            guard let pipeline else { return }
            if pipeline.diskFull { rows.add("diskFull", "disk", "full: recording stopped, the tunnel did not") }
            if pipeline.captureDisabledByFailure { rows.add("captureOff", "capture", "turned off by a failure") }
            if let error = pipeline.lastCaptureError { rows.add("capture", "last capture error", error) }
            if let error = pipeline.lastStoreError { rows.add("history", "last history error", error) }
        }
        return errors.rows.isEmpty ? [] : [errors]
    }

    static func section(_ key: String, _ title: String, note: String? = nil,
                                _ fill: (inout Rows) -> Void) -> DiagnosticsSection {
        var rows = Rows(prefix: key)
        fill(&rows)
        return DiagnosticsSection(key: key, title: title, rows: rows.rows, note: note)
    }

    /// Rows keyed under their section, so a key is unique on the whole screen.
    struct Rows {
        let prefix: String
        var rows: [DiagnosticsRow] = []

        mutating func add(_ key: String, _ label: String, _ value: String) {
            rows.append(DiagnosticsRow(key: "\(prefix).\(key)", label: label, value: value))
        }

        mutating func count(_ key: String, _ label: String, _ value: UInt64) { add(key, label, String(value)) }

        mutating func volume(_ key: String, _ label: String, _ bytes: UInt64) { add(key, label, ByteCountText.binary(bytes)) }
    }
}
