import Shared

/// What `tunnelvision stats` prints: every counter the running tunnel reported, under the name
/// `stats --json` gives it (a count by errno as `name.ERRNO`, its path there), grouped by what it
/// answers. Built from the values, field by field, so a group the tunnel did not report (no relay
/// while it stops, no inspection in this build) is absent — never a row of zeros claiming nothing
/// happened.
package struct TunnelStatsReport: Sendable, Equatable {
    /// One counter: its JSON name and its value as a person reads it.
    package struct Line: Sendable, Equatable {
        package let name: String
        package let value: String
    }

    /// The counters of one value, under the dotted path of that value in the JSON.
    package struct Group: Sendable, Equatable {
        /// `pipeline`, `pipeline.parseDrops`, `relay.inspection`…
        package let path: String
        /// What the group answers, for the heading.
        package let title: String
        package let lines: [Line]
    }

    package let groups: [Group]

    package init(_ stats: TunnelStats) {
        var groups = Self.pipelineGroups(stats.pipeline)
        if let relay = stats.relay { groups += Self.relayGroups(relay) }
        if let resolvers = stats.resolvers { groups.append(Self.resolverGroup(resolvers)) }
        if let shell = stats.shell { groups += Self.shellGroups(shell) }
        if let control = stats.control { groups.append(Self.controlGroup(control)) }
        self.groups = groups
    }

    /// Each group's heading, then its counters, names padded so the values line up.
    package var text: String {
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
        var groups = [group("pipeline", "what was recorded") { lines in
            lines.add("packetsHandled", pipeline.packetsHandled)
            lines.add("bytesHandled", pipeline.bytesHandled)
            lines.add("packetsDroppedNoLocalAddress", pipeline.packetsDroppedNoLocalAddress)
            lines.add("packetsCaptured", pipeline.packetsCaptured)
            lines.add("captureFailures", pipeline.captureFailures)
            lines.add("captureDisabledByFailure", pipeline.captureDisabledByFailure)
            lines.add("lastCaptureError", pipeline.lastCaptureError)
            lines.add("packetsPublished", pipeline.packetsPublished)
            lines.add("liveFeedDrops", pipeline.liveFeedDrops)
            lines.add("storeBatchesWritten", pipeline.storeBatchesWritten)
            lines.add("storeBatchesFailed", pipeline.storeBatchesFailed)
            lines.add("packetsLostToStoreFailures", pipeline.packetsLostToStoreFailures)
            lines.add("lastStoreError", pipeline.lastStoreError)
            lines.add("diskFull", pipeline.diskFull)
            lines.add("flowsOpened", pipeline.flowsOpened)
            lines.add("flowsClosed", pipeline.flowsClosed)
            lines.add("flowsExpired", pipeline.flowsExpired)
            lines.add("flowsEvicted", pipeline.flowsEvicted)
            lines.add("flowsRefusedAtCapacity", pipeline.flowsRefusedAtCapacity)
            lines.add("reinjectedRecorded", pipeline.reinjectedRecorded)
            lines.add("quicVersionsObserved", pipeline.quicVersionsObserved)
        }]
        let drops = pipeline.parseDrops
        groups.append(group("pipeline.parseDrops", "datagrams dropped unparseable, by reason (\(drops.total) in all)") { lines in
            lines.add("tooShort", drops.tooShort)
            lines.add("unsupportedVersion", drops.unsupportedVersion)
            lines.add("badHeaderLength", drops.badHeaderLength)
            lines.add("totalLengthBeyondBuffer", drops.totalLengthBeyondBuffer)
            lines.add("extensionHeaderTruncated", drops.extensionHeaderTruncated)
            lines.add("extensionChainTooLong", drops.extensionChainTooLong)
            lines.add("badDataOffset", drops.badDataOffset)
            lines.add("truncatedL4", drops.truncatedL4)
            lines.add("badUDPLength", drops.badUDPLength)
        })
        let dns = pipeline.dnsNames
        groups.append(group("pipeline.dnsNames", "naming flows from DNS answers") { lines in
            lines.add("repliesRecorded", dns.repliesRecorded)
            lines.add("addressesLearned", dns.addressesLearned)
            lines.add("unreadableDatagrams", dns.unreadableDatagrams)
            lines.add("flowsNamed", dns.flowsNamed)
            lines.add("notAResponse", dns.notAResponse)
            lines.add("unsupportedOpcode", dns.unsupportedOpcode)
            lines.add("errorResponse", dns.errorResponse)
            lines.add("unsupportedQuestion", dns.unsupportedQuestion)
            lines.add("unusableName", dns.unusableName)
            lines.add("noAddresses", dns.noAddresses)
        })
        let quic = pipeline.quicNames
        groups.append(group("pipeline.quicNames", "reading QUIC flows' Initials") { lines in
            lines.add("initialsSeen", quic.initialsSeen)
            lines.add("initialsOpened", quic.initialsOpened)
            lines.add("initialsUnopenable", quic.initialsUnopenable)
            lines.add("helloIncomplete", quic.helloIncomplete)
            lines.add("flowsNamed", quic.flowsNamed)
            lines.add("flowsWithoutName", quic.flowsWithoutName)
            lines.add("serverAnswersRead", quic.serverAnswersRead)
            lines.add("serverInitialsUnopenable", quic.serverInitialsUnopenable)
        })
        if let plaintext = pipeline.plaintext {
            groups.append(group("pipeline.plaintext", "decrypted content kept") { lines in
                lines.add("plaintextChunksWritten", plaintext.plaintextChunksWritten)
                lines.add("plaintextChunksExpired", plaintext.plaintextChunksExpired)
                lines.add("plaintextBytesStored", plaintext.plaintextBytesStored)
                lines.add("plaintextBytesTruncated", plaintext.plaintextBytesTruncated)
                lines.add("plaintextChunksRefused", plaintext.plaintextChunksRefused)
                lines.add("plaintextWriteFailures", plaintext.plaintextWriteFailures)
                lines.add("plaintextFilesReclaimed", plaintext.plaintextFilesReclaimed)
                lines.add("plaintextDisabledByFailure", plaintext.plaintextDisabledByFailure)
                lines.add("lastPlaintextError", plaintext.lastPlaintextError)
            })
        }
        if let retention = pipeline.retention {
            groups.append(group("pipeline.retention", "retention at session start and each new capture file") { lines in
                lines.add("sweeps", retention.sweeps)
                lines.add("capturesReclaimed", retention.capturesReclaimed)
                lines.add("bytesReclaimed", retention.bytesReclaimed)
                lines.add("flowsPruned", retention.flowsPruned)
                lines.add("retentionFailures", retention.retentionFailures)
                lines.add("lastRetentionError", retention.lastRetentionError)
            })
        }
        return groups
    }

    private static func relayGroups(_ relay: RelayStats) -> [Group] {
        var groups = [group("relay", "what was forwarded") { lines in
            lines.add("tcpFlowsOpened", relay.tcpFlowsOpened)
            lines.add("tcpFlowsClosed", relay.tcpFlowsClosed)
            lines.add("udpFlowsOpened", relay.udpFlowsOpened)
            lines.add("connectFailures", relay.connectFailures)
            lines.add("portUnreachableAnswers", relay.portUnreachableAnswers)
            lines.add("bytesFromDevice", relay.bytesFromDevice)
            lines.add("bytesToDevice", relay.bytesToDevice)
            lines.add("emitterFailures", relay.emitterFailures)
            lines.add("segmentsRefused", relay.segmentsRefused)
            lines.add("dnsQueriesSent", relay.dnsQueriesSent)
            lines.add("dnsRepliesReceived", relay.dnsRepliesReceived)
            lines.add("streamOpeningsTLS", relay.streamOpeningsTLS)
            lines.add("streamOpeningsHTTP", relay.streamOpeningsHTTP)
            lines.add("streamOpeningsUnrecognised", relay.streamOpeningsUnrecognised)
            lines.add("streamsUpgradedToTLS", relay.streamsUpgradedToTLS)
            lines.add("plaintextUpgradesAbandoned", relay.plaintextUpgradesAbandoned)
        }]
        if let inspection = relay.inspection {
            groups.append(group("relay.inspection", "what was inspected") { lines in
                lines.add("inspectionCandidates", inspection.inspectionCandidates)
                lines.add("terminationsOpened", inspection.terminationsOpened)
                lines.add("inspectionsAbandoned", inspection.inspectionsAbandoned)
                lines.add("pinnedHostSkips", inspection.pinnedHostSkips)
                lines.add("flowsInspected", inspection.flowsInspected)
                lines.add("flowsPinned", inspection.flowsPinned)
                lines.add("terminationsFailed", inspection.terminationsFailed)
                lines.add("byReason", Dictionary(uniqueKeysWithValues: inspection.byReason.all.map {
                    (InspectionReasonWording.identifier($0.kind), $0.count)
                }))
                if let minted = inspection.leavesMinted { lines.add("leavesMinted", minted) }
            })
        }
        return groups
    }

    private static func resolverGroup(_ resolvers: ResolverStatus) -> Group {
        group("resolvers", "name resolution given to the namespace") { lines in
            lines.add("announced", resolvers.announced)
            lines.add("reportedAtStart", resolvers.reportedAtStart)
            lines.add("reportedNow", resolvers.reportedNow)
            lines.add("networkChanges", resolvers.networkChanges)
            lines.add("networkChangesLearned", resolvers.networkChangesLearned)
        }
    }

    /// A TUN's refusals, or — for a watched interface, which says what it skipped — what its
    /// capture socket saw; with what the kernel dropped before it was read.
    private static func deviceGroup(_ device: ShellStats.Device) -> Group {
        let watched = device.framesNotIP != nil
        let title = watched
            ? "what the capture socket on the watched interface saw ("
                + (device.kernel.map { "\($0.queueDrops) packets dropped by the kernel before they were read" } ?? "drops not known")
                + ")"
            : "what the TUN device refused (\(device.readFailureCount) reads failed, "
                + "\(device.writeDropCount) datagrams lost) and what the kernel counted on it ("
                + (device.kernel.map { "\($0.queueDrops) datagrams dropped before the tunnel read them" } ?? "not known")
                + ")"
        return group("shell.device", title) { lines in
            lines.add("readFailures", device.readFailures)
            if !watched { lines.add("writeDrops", device.writeDrops) }
            if let kernel = device.kernel {
                lines.add("kernel.queueDrops", kernel.queueDrops)
                lines.add("kernel.datagramsRead", kernel.datagramsRead)
            }
            lines.add("kernelProblem", device.kernelProblem)
            if let skipped = device.framesNotIP { lines.add("framesNotIP", skipped) }
            if let cut = device.framesCut { lines.add("framesCut", cut) }
        }
    }

    private static func shellGroups(_ shell: ShellStats) -> [Group] {
        let device = shell.device
        let sockets = shell.sockets
        // A watched interface relays nothing: it has no sockets to report on.
        if device.framesNotIP != nil { return [deviceGroup(device)] }
        return [
            deviceGroup(device),
            group("shell.sockets", "what the relay's sockets refused") { lines in
                lines.add("socketFailures", sockets.socketFailures)
                lines.add("connectFailures", sockets.connectFailures)
                lines.add("sendFailures", sockets.sendFailures)
                lines.add("receiveFailures", sockets.receiveFailures)
                lines.add("shutdownFailures", sockets.shutdownFailures)
                lines.add("watchFailures", sockets.watchFailures)
                lines.add("udpSendsLost", sockets.udpSendsLost)
                lines.add("connectFailuresByErrno", sockets.connectFailuresByErrno)
            },
        ]
    }

    /// The group at `path` with the lines `fill` adds, in its order.
    static func group(_ path: String, _ title: String, _ fill: (inout Lines) -> Void) -> Group {
        var lines = Lines()
        fill(&lines)
        return Group(path: path, title: title, lines: lines.lines)
    }

    /// A group's lines as they are added; an optional without a value adds none.
    struct Lines {
        var lines: [Line] = []

        mutating func add(_ name: String, _ value: UInt64) { lines.append(Line(name: name, value: String(value))) }

        mutating func add(_ name: String, _ value: Bool) { lines.append(Line(name: name, value: value ? "yes" : "no")) }

        /// Quoted and escaped, so a message with a newline stays on its line.
        mutating func add(_ name: String, _ value: String?) {
            guard let value else { return }
            lines.append(Line(name: name, value: value.debugDescription))
        }

        /// Counts by key (an errno's name), one line each as `name.KEY` — the key's path in the
        /// JSON — in key order; none yet is a claim, "none".
        mutating func add(_ name: String, _ counts: [String: UInt64]) {
            guard !counts.isEmpty else {
                lines.append(Line(name: name, value: "none"))
                return
            }
            for (key, count) in counts.sorted(by: { $0.key < $1.key }) { add("\(name).\(key)", count) }
        }

        /// An empty list is a claim ("none"), unlike an absent one.
        mutating func add(_ name: String, _ value: [String]?) {
            guard let value else { return }
            lines.append(Line(name: name, value: value.isEmpty ? "none" : value.joined(separator: ", ")))
        }
    }
}
