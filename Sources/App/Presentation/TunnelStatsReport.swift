import Shared

/// What `tunnelvision stats` prints: every counter the running tunnel reported, under the name
/// `stats --json` gives it, grouped by what it answers. Built from the values, field by field, so
/// a group the tunnel did not report (no relay while it stops, no inspection in this build) is
/// absent — never a row of zeros claiming nothing happened.
public struct TunnelStatsReport: Sendable, Equatable {
    /// One counter: its JSON name and its value as a person reads it.
    public struct Line: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// The counters of one value, under the dotted path of that value in the JSON.
    public struct Group: Sendable, Equatable {
        /// `pipeline`, `pipeline.parseDrops`, `relay.inspection`…
        public let path: String
        /// What the group answers, for the heading.
        public let title: String
        public let lines: [Line]
    }

    public let groups: [Group]

    public init(_ stats: TunnelStats) {
        var groups = Self.pipelineGroups(stats.pipeline)
        if let relay = stats.relay { groups += Self.relayGroups(relay) }
        if let resolvers = stats.resolvers { groups.append(Self.resolverGroup(resolvers)) }
        self.groups = groups
    }

    /// Each group's heading, then its counters, names padded so the values line up.
    public var text: String {
        var out: [String] = []
        for group in groups {
            out.append("\(group.path) — \(group.title)")
            let width = group.lines.map(\.name.count).max() ?? 0
            for line in group.lines {
                out.append("  " + line.name + String(repeating: " ", count: width - line.name.count + 2) + line.value)
            }
        }
        return out.joined(separator: "\n")
    }

    private static func pipelineGroups(_ pipeline: PipelineStats) -> [Group] {
        var main = Lines()
        main.add("packetsHandled", pipeline.packetsHandled)
        main.add("bytesHandled", pipeline.bytesHandled)
        main.add("packetsDroppedNoLocalAddress", pipeline.packetsDroppedNoLocalAddress)
        main.add("packetsCaptured", pipeline.packetsCaptured)
        main.add("captureFailures", pipeline.captureFailures)
        main.add("captureDisabledByFailure", pipeline.captureDisabledByFailure)
        main.add("lastCaptureError", pipeline.lastCaptureError)
        main.add("packetsPublished", pipeline.packetsPublished)
        main.add("liveFeedDrops", pipeline.liveFeedDrops)
        main.add("storeBatchesWritten", pipeline.storeBatchesWritten)
        main.add("storeBatchesFailed", pipeline.storeBatchesFailed)
        main.add("packetsLostToStoreFailures", pipeline.packetsLostToStoreFailures)
        main.add("lastStoreError", pipeline.lastStoreError)
        main.add("flowsOpened", pipeline.flowsOpened)
        main.add("flowsClosed", pipeline.flowsClosed)
        main.add("flowsExpired", pipeline.flowsExpired)
        main.add("flowsEvicted", pipeline.flowsEvicted)
        main.add("reinjectedRecorded", pipeline.reinjectedRecorded)
        main.add("quicVersionsObserved", pipeline.quicVersionsObserved)
        var groups = [Group(path: "pipeline", title: "what was recorded", lines: main.lines)]

        let drops = pipeline.parseDrops
        var parse = Lines()
        parse.add("tooShort", drops.tooShort)
        parse.add("unsupportedVersion", drops.unsupportedVersion)
        parse.add("badHeaderLength", drops.badHeaderLength)
        parse.add("totalLengthBeyondBuffer", drops.totalLengthBeyondBuffer)
        parse.add("extensionHeaderTruncated", drops.extensionHeaderTruncated)
        parse.add("extensionChainTooLong", drops.extensionChainTooLong)
        parse.add("badDataOffset", drops.badDataOffset)
        parse.add("truncatedL4", drops.truncatedL4)
        parse.add("badUDPLength", drops.badUDPLength)
        groups.append(Group(path: "pipeline.parseDrops",
                            title: "datagrams dropped unparseable, by reason (\(drops.total) in all)", lines: parse.lines))

        let dns = pipeline.dnsNames
        var dnsLines = Lines()
        dnsLines.add("repliesRecorded", dns.repliesRecorded)
        dnsLines.add("addressesLearned", dns.addressesLearned)
        dnsLines.add("unreadableDatagrams", dns.unreadableDatagrams)
        dnsLines.add("flowsNamed", dns.flowsNamed)
        dnsLines.add("notAResponse", dns.notAResponse)
        dnsLines.add("unsupportedOpcode", dns.unsupportedOpcode)
        dnsLines.add("errorResponse", dns.errorResponse)
        dnsLines.add("unsupportedQuestion", dns.unsupportedQuestion)
        dnsLines.add("unusableName", dns.unusableName)
        dnsLines.add("noAddresses", dns.noAddresses)
        groups.append(Group(path: "pipeline.dnsNames", title: "naming flows from DNS answers", lines: dnsLines.lines))

        let quic = pipeline.quicNames
        var quicLines = Lines()
        quicLines.add("initialsSeen", quic.initialsSeen)
        quicLines.add("initialsOpened", quic.initialsOpened)
        quicLines.add("initialsUnopenable", quic.initialsUnopenable)
        quicLines.add("helloIncomplete", quic.helloIncomplete)
        quicLines.add("flowsNamed", quic.flowsNamed)
        quicLines.add("flowsWithoutName", quic.flowsWithoutName)
        groups.append(Group(path: "pipeline.quicNames", title: "naming QUIC flows from their Initials", lines: quicLines.lines))

        if let plaintext = pipeline.plaintext {
            var lines = Lines()
            lines.add("plaintextChunksWritten", plaintext.plaintextChunksWritten)
            lines.add("plaintextChunksExpired", plaintext.plaintextChunksExpired)
            groups.append(Group(path: "pipeline.plaintext", title: "decrypted content kept", lines: lines.lines))
        }
        if let retention = pipeline.retention {
            var lines = Lines()
            lines.add("capturesReclaimed", retention.capturesReclaimed)
            lines.add("retentionFailures", retention.retentionFailures)
            lines.add("lastRetentionError", retention.lastRetentionError)
            groups.append(Group(path: "pipeline.retention", title: "retention when the capture rotates", lines: lines.lines))
        }
        return groups
    }

    private static func relayGroups(_ relay: RelayStats) -> [Group] {
        var main = Lines()
        main.add("tcpFlowsOpened", relay.tcpFlowsOpened)
        main.add("tcpFlowsClosed", relay.tcpFlowsClosed)
        main.add("udpFlowsOpened", relay.udpFlowsOpened)
        main.add("connectFailures", relay.connectFailures)
        main.add("bytesFromDevice", relay.bytesFromDevice)
        main.add("bytesToDevice", relay.bytesToDevice)
        main.add("emitterFailures", relay.emitterFailures)
        main.add("segmentsRefused", relay.segmentsRefused)
        main.add("dnsQueriesSent", relay.dnsQueriesSent)
        main.add("dnsRepliesReceived", relay.dnsRepliesReceived)
        main.add("streamOpeningsTLS", relay.streamOpeningsTLS)
        main.add("streamOpeningsHTTP", relay.streamOpeningsHTTP)
        main.add("streamOpeningsUnrecognised", relay.streamOpeningsUnrecognised)
        var groups = [Group(path: "relay", title: "what was forwarded", lines: main.lines)]
        if let inspection = relay.inspection {
            var lines = Lines()
            lines.add("inspectionCandidates", inspection.inspectionCandidates)
            lines.add("terminationsOpened", inspection.terminationsOpened)
            lines.add("inspectionsAbandoned", inspection.inspectionsAbandoned)
            lines.add("pinnedHostSkips", inspection.pinnedHostSkips)
            lines.add("flowsInspected", inspection.flowsInspected)
            lines.add("flowsPinned", inspection.flowsPinned)
            lines.add("terminationsFailed", inspection.terminationsFailed)
            groups.append(Group(path: "relay.inspection", title: "what was inspected", lines: lines.lines))
        }
        return groups
    }

    private static func resolverGroup(_ resolvers: ResolverStatus) -> Group {
        var lines = Lines()
        lines.add("announced", resolvers.announced)
        lines.add("reportedAtStart", resolvers.reportedAtStart)
        lines.add("reportedNow", resolvers.reportedNow)
        return Group(path: "resolvers", title: "name resolution given to the namespace", lines: lines.lines)
    }

    /// A group's lines as they are added; an optional without a value adds none.
    private struct Lines {
        var lines: [Line] = []

        mutating func add(_ name: String, _ value: UInt64) { lines.append(Line(name: name, value: String(value))) }

        mutating func add(_ name: String, _ value: Bool) { lines.append(Line(name: name, value: value ? "yes" : "no")) }

        /// Quoted and escaped, so a message with a newline stays on its line.
        mutating func add(_ name: String, _ value: String?) {
            guard let value else { return }
            lines.append(Line(name: name, value: value.debugDescription))
        }

        /// An empty list is a claim ("none"), unlike an absent one.
        mutating func add(_ name: String, _ value: [String]?) {
            guard let value else { return }
            lines.append(Line(name: name, value: value.isEmpty ? "none" : value.joined(separator: ", ")))
        }
    }
}
