import Shared

extension DiagnosticsPresentation {
    /// Can the monitored programs look up names at all? A verdict apart from inspection's: that one
    /// is optional and degrades silently, this one is whether anything works.
    ///
    /// `.stale` needs cause and symptom together (the seed's rule): the system's resolvers changed
    /// and nothing new was ever learnt, and lookups go unanswered. A change that was learnt never
    /// ends in `.stale`: the tunnel has shown it catches up.
    package enum ResolverVerdict: String, Sendable, Equatable, CaseIterable {
        /// No tunnel, or no resolvers in the reply: nothing to affirm — never "announced none".
        case unknown
        /// Nothing announced because the system could not be asked.
        case unreadable
        /// Nothing announced because the system reported none.
        case noneReported
        /// Nothing announced although the system reported some: none could be passed on.
        case noneUsable
        /// Lookups went unanswered after the system's resolvers changed and nothing new was learnt:
        /// the servers announced belong to the previous network.
        case stale
        /// Lookups went out and not one was answered.
        case notAnswering
        case announcing
    }

    /// Below this many lookups without a reply nothing is claimed: one is in flight, two are a retry.
    static let unansweredLookupsBeforeVerdict: UInt64 = 4

    package static func resolverVerdict(for stats: TunnelStats?, isMonitoring: Bool) -> ResolverVerdict {
        guard isMonitoring, let resolvers = stats?.resolvers else { return .unknown }
        if resolvers.announced.isEmpty {
            guard let reported = resolvers.reportedAtStart else { return .unreadable }
            return reported.isEmpty ? .noneReported : .noneUsable
        }
        // The lookups are the relay's counters: without them no failure is claimed.
        if let relay = stats?.relay, relay.dnsQueriesSent >= unansweredLookupsBeforeVerdict, relay.dnsRepliesReceived == 0 {
            return resolvers.networkChanges > 0 && resolvers.networkChangesLearned == 0 ? .stale : .notAnswering
        }
        return .announcing
    }

    /// The warning above the headline; nil when there is nothing to warn about, because a notice
    /// shown when all is well teaches the reader to ignore it.
    package static func resolverNotice(for verdict: ResolverVerdict) -> DiagnosticsHeadline? {
        let text: String? = switch verdict {
        case .unknown, .announcing: nil
        case .unreadable:
            "The tunnel could not read this machine's resolvers, so it gave the monitored programs none: they cannot look up names. Check /etc/resolv.conf, then start the tunnel again."
        case .noneReported:
            "This machine reports no resolvers, so the monitored programs were given none and cannot look up names. Configure a DNS server, then start the tunnel again."
        case .noneUsable:
            "None of this machine's resolvers can be reached through the tunnel (a local one such as 127.0.0.53 with no upstream behind it), so the monitored programs cannot look up names. Name an upstream resolver in /etc/resolv.conf, then start the tunnel again."
        case .stale:
            "This machine's resolvers changed while the tunnel ran and no new ones could be learnt, so the monitored programs still ask the previous network's servers and get no answer. Check /etc/resolv.conf, then start the tunnel again."
        case .notAnswering:
            "Lookups were sent to the resolvers the tunnel announced and not one was answered: check that they can be reached from this machine."
        }
        return text.map { DiagnosticsHeadline(verdict: verdict.rawValue, text: $0) }
    }
}
