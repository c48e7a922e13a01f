extension FlowFactValues {
    /// The columns for what `record` knows; a group it does not know stays NULL (and so leaves the
    /// stored group alone on upsert).
    ///
    /// Space-separated lists cannot hold a name that is empty or contains white space; such names
    /// never come from the readers (DNS names are domain-valid, ALPN names printable without
    /// spaces), and should one arrive it is dropped — counted in `omittedApplicationProtocols` for
    /// an offer, whose meaning that count already is.
    init(_ record: FlowRecord) {
        self.init()
        self[.sni] = record.sni.map(SQLiteValue.text) ?? .null
        if let resolved = record.resolvedName {
            self[.dnsName] = .text(resolved.name)
            let others = resolved.otherNames.filter(Self.isListable)
            self[.dnsOtherNames] = others.isEmpty ? .null : .text(others.joined(separator: " "))
        }
        switch record.serverTLS {
        case let .negotiated(answer)?:
            self[.tlsVersion] = .integer(Int64(answer.version.rawValue))
            self[.tlsCipherSuite] = .integer(Int64(answer.cipherSuite.rawValue))
            self[.tlsHelloRetry] = .integer(answer.fromHelloRetryRequest ? 1 : 0)
            self[.tlsUpstream] = .integer(answer.source == .upstreamConnection ? 1 : 0)
            if let fingerprints = record.serverFingerprints {
                self[.tlsJA3SFull] = .text(fingerprints.ja3sFull)
                self[.tlsJA3S] = .text(fingerprints.ja3s)
            }
        case let .refused(alert)?:
            self[.tlsAlert] = .integer(Int64(alert))
        case nil:
            break
        }
        if let offer = record.clientTLS {
            switch offer.versions {
            case let .listed(versions):
                self[.tlsOfferedVersions] = .text(versions.map { String($0.rawValue) }.joined(separator: " "))
            case let .upTo(ceiling):
                self[.tlsOfferedLegacy] = .integer(Int64(ceiling.rawValue))
            }
            let listed = offer.applicationProtocols.filter(Self.isListable)
            self[.tlsOfferedALPN] = .text(listed.joined(separator: " "))
            self[.tlsOfferedALPNOmitted] = .integer(Int64(clamping: offer.omittedApplicationProtocols)
                                                    + Int64(offer.applicationProtocols.count - listed.count))
            self[.tlsOfferedECH] = .integer(offer.hasEncryptedClientHello ? 1 : 0)
            self[.tlsOfferedServerNameAsSent] = offer.serverNameAsSent.map(SQLiteValue.text) ?? .null
            if let fingerprints = record.clientFingerprints {
                self[.tlsJA4] = .text(fingerprints.ja4)
                self[.tlsJA3Full] = .text(fingerprints.ja3Full)
                self[.tlsJA3] = .text(fingerprints.ja3)
            }
        }
        if let quic = record.quic {
            self[.quicVersion] = .integer(Int64(quic.version.rawValue))
            self[.quicFromServer] = .integer(quic.source == .server ? 1 : 0)
        }
        switch record.serverCertificates {
        case let .chain(chain)?:
            self[.tlsChainState] = .integer((chain.isComplete ? CertificateChainState.complete : .beginningOnly).rawValue)
            self[.tlsChain] = .text(CertificateChainColumn.encode(chain.certificates))
        case let .notSent(absence)?:
            self[.tlsChainState] = .integer(CertificateChainState(absence).rawValue)
        case nil:
            break
        }
        self[.streamOpening] = record.streamOpening.map { .text($0.rawValue) } ?? .null
        if let reason = record.inspectionReason {
            self[.inspectionReason] = .text(reason.kind.rawValue)
            self[.inspectionDetail] = reason.detail.map(SQLiteValue.text) ?? .null
        }
        if let leaf = record.leafTLS {
            self[.leafTLSVersion] = .integer(Int64(leaf.version.rawValue))
            self[.leafTLSCipherSuite] = .integer(Int64(leaf.cipherSuite.rawValue))
        }
        self[.serverEnding] = record.serverEnding.map { .integer(Int64($0.rawValue)) } ?? .null
        if let program = record.program {
            self[.programState] = .text(ProgramAttributionState(program).rawValue)
            switch program {
            case .program(let facts):
                self[.programPID] = .integer(Int64(facts.pid))
                self[.programCommand] = .text(facts.command)
                self[.programExecutable] = facts.executable.map(SQLiteValue.text) ?? .null
                self[.programUID] = .integer(Int64(facts.uid))
                self[.programUser] = facts.user.map(SQLiteValue.text) ?? .null
            case .unavailable(let reason):
                self[.programDetail] = .text(reason)
            case .socketGone, .notLocal:
                break
            }
        }
        if let target = record.proxyTarget {
            self[.proxyProtocol] = .text(target.proxyProtocol.rawValue)
            self[.proxyHost] = .text(target.host)
            self[.proxyPort] = .integer(Int64(target.port))
            self[.proxyName] = target.hostName.map(SQLiteValue.text) ?? .null
        }
        if let local = record.localEnd {
            if local == record.key.endpointA { self[.localEnd] = .integer(0) }
            else if local == record.key.endpointB { self[.localEnd] = .integer(1) }
        }
        if let exchange = record.dnsExchange, Self.isListable(exchange.question) {
            self[.dnsQuery] = .text(exchange.question)
            self[.dnsQueryType] = .integer(Int64(exchange.questionType))
            if let reply = exchange.reply {
                self[.dnsReplyCode] = .integer(Int64(reply.responseCode))
                self[.dnsReplyCount] = .integer(Int64(reply.answerCount))
                self[.dnsReplyAnswers] = .text(reply.answers.filter(Self.isListable).joined(separator: " "))
            }
        }
    }

    private static func isListable(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(where: \.isWhitespace)
    }
}
