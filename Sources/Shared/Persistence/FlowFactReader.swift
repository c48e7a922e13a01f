/// Reads a row's fact columns back as model values, holding them to the rules the encoder keeps
/// (exclusive columns, pairs set together, values in range). A row that breaks one is corrupt:
/// reported, never guessed at and never a crash.
struct FlowFactReader {
    let values: FlowFactValues
    /// Names the row in messages: "flow 12".
    let row: String

    func sni() throws(StoreError) -> String? { try text(.sni) }

    func resolvedName() throws(StoreError) -> ResolvedFlowName? {
        guard let name = try text(.dnsName) else {
            guard values[.dnsOtherNames] == .null else { throw corrupt("dns_other_names without dns_name") }
            return nil
        }
        let others = try text(.dnsOtherNames).map { $0.split(separator: " ").map(String.init) } ?? []
        return ResolvedFlowName(name: name, otherNames: others)
    }

    func serverTLS() throws(StoreError) -> ServerTLSAnswer? {
        let version = try integer(.tlsVersion, as: UInt16.self)
        let cipherSuite = try integer(.tlsCipherSuite, as: UInt16.self)
        let helloRetry = try flag(.tlsHelloRetry)
        let upstream = try flag(.tlsUpstream)
        if let alert = try integer(.tlsAlert, as: UInt8.self) {
            guard version == nil, cipherSuite == nil, helloRetry == nil else {
                throw corrupt("tls_alert beside a negotiated version")
            }
            return .refused(alert: alert)
        }
        guard let version else {
            guard cipherSuite == nil, helloRetry == nil else { throw corrupt("TLS answer columns without tls_version") }
            return nil
        }
        guard let cipherSuite else { throw corrupt("tls_version without tls_cipher_suite") }
        return .negotiated(NegotiatedTLS(version: TLSProtocolVersion(rawValue: version),
                                         cipherSuite: TLSCipherSuite(rawValue: cipherSuite),
                                         fromHelloRetryRequest: helloRetry ?? false,
                                         source: upstream == true ? .upstreamConnection : .serverHello))
    }

    func clientTLS() throws(StoreError) -> ClientTLSOffer? {
        let versions: OfferedTLSVersions
        switch (try text(.tlsOfferedVersions), try integer(.tlsOfferedLegacy, as: UInt16.self)) {
        case (nil, nil):
            return nil
        case let (listed?, nil):
            var parsed: [TLSProtocolVersion] = []
            for word in listed.split(separator: " ") {
                guard let raw = UInt16(word) else { throw corrupt("tls_offered_versions holds \"\(word)\"") }
                parsed.append(TLSProtocolVersion(rawValue: raw))
            }
            versions = .listed(parsed)
        case let (nil, ceiling?):
            versions = .upTo(TLSProtocolVersion(rawValue: ceiling))
        case (_?, _?):
            throw corrupt("both tls_offered_versions and tls_offered_legacy")
        }
        let protocols = try text(.tlsOfferedALPN).map { $0.split(separator: " ").map(String.init) } ?? []
        return ClientTLSOffer(versions: versions, applicationProtocols: protocols,
                              omittedApplicationProtocols: try integer(.tlsOfferedALPNOmitted, as: Int.self) ?? 0,
                              hasEncryptedClientHello: try flag(.tlsOfferedECH) ?? false,
                              serverNameAsSent: try text(.tlsOfferedServerNameAsSent))
    }

    /// The ClientHello's fingerprints: all three columns or none, and only beside an offer.
    func clientFingerprints() throws(StoreError) -> ClientHelloFingerprints? {
        switch (try text(.tlsJA4), try text(.tlsJA3Full), try text(.tlsJA3)) {
        case (nil, nil, nil):
            return nil
        case let (ja4?, full?, hash?):
            guard try clientTLS() != nil else { throw corrupt("tls_ja4 without an offer") }
            return ClientHelloFingerprints(ja4: ja4, ja3Full: full, ja3: hash)
        default:
            throw corrupt("tls_ja4, tls_ja3_full and tls_ja3 not set together")
        }
    }

    /// The cleartext ServerHello's JA3S: both columns or neither, and only beside a version.
    func serverFingerprints() throws(StoreError) -> ServerHelloFingerprints? {
        switch (try text(.tlsJA3SFull), try text(.tlsJA3S)) {
        case (nil, nil):
            return nil
        case let (full?, hash?):
            guard case .negotiated? = try serverTLS() else { throw corrupt("tls_ja3s without a negotiated version") }
            return ServerHelloFingerprints(ja3sFull: full, ja3s: hash)
        default:
            throw corrupt("tls_ja3s_full and tls_ja3s not set together")
        }
    }

    func quic() throws(StoreError) -> QUICVersionReading? {
        switch (try integer(.quicVersion, as: UInt32.self), try flag(.quicFromServer)) {
        case (nil, nil): return nil
        case let (version?, fromServer?):
            return QUICVersionReading(version: QUICVersion(rawValue: version), source: fromServer ? .server : .client)
        default: throw corrupt("quic_version and quic_from_server not set together")
        }
    }

    func serverCertificates() throws(StoreError) -> ServerCertificateReading? {
        guard let raw = try integer(.tlsChainState) else {
            guard values[.tlsChain] == .null else { throw corrupt("tls_chain without tls_chain_state") }
            return nil
        }
        guard let state = CertificateChainState(rawValue: raw) else { throw corrupt("tls_chain_state \(raw)") }
        let chain = try text(.tlsChain)
        switch state {
        case .complete, .beginningOnly:
            guard let chain, let certificates = CertificateChainColumn.decode(chain) else {
                throw corrupt("tls_chain is missing or not a certificate list")
            }
            return .chain(ServerCertificateChain(certificates: certificates, isComplete: state == .complete))
        case .resumedSession, .continuedWithoutCertificate:
            guard chain == nil else { throw corrupt("tls_chain beside a chain state that has none") }
            return .notSent(state == .resumedSession ? .resumedSession : .continuedWithoutCertificate)
        }
    }

    func inspectionReason() throws(StoreError) -> InspectionReason? {
        guard let raw = try text(.inspectionReason) else {
            guard values[.inspectionDetail] == .null else { throw corrupt("inspection_failure without inspection_reason") }
            return nil
        }
        guard let kind = InspectionReasonKind(rawValue: raw) else { throw corrupt("inspection_reason \"\(raw)\"") }
        return InspectionReason(kind, detail: try text(.inspectionDetail))
    }

    func leafTLS() throws(StoreError) -> NegotiatedTLS? {
        switch (try integer(.leafTLSVersion, as: UInt16.self), try integer(.leafTLSCipherSuite, as: UInt16.self)) {
        case (nil, nil): return nil
        case let (version?, cipherSuite?):
            return NegotiatedTLS(version: TLSProtocolVersion(rawValue: version), cipherSuite: TLSCipherSuite(rawValue: cipherSuite),
                                 fromHelloRetryRequest: false, source: .tunnelLeaf)
        default: throw corrupt("tls_leaf_version and tls_leaf_cipher_suite not set together")
        }
    }

    func serverEnding() throws(StoreError) -> TLSStreamEnding? {
        guard let raw = try integer(.serverEnding, as: UInt8.self) else { return nil }
        guard let ending = TLSStreamEnding(rawValue: raw) else { throw corrupt("tls_server_ending \(raw)") }
        return ending
    }

    func program() throws(StoreError) -> ProgramAttribution? {
        let facts: [FlowFactColumn] = [.programPID, .programCommand, .programExecutable, .programUID, .programUser]
        guard let raw = try text(.programState) else {
            guard (facts + [.programDetail]).allSatisfy({ values[$0] == .null }) else { throw corrupt("program columns without program_state") }
            return nil
        }
        guard let state = ProgramAttributionState(rawValue: raw) else { throw corrupt("program_state \"\(raw)\"") }
        guard state == .unavailable || values[.programDetail] == .null else { throw corrupt("program_detail beside program_state \"\(raw)\"") }
        switch state {
        case .program:
            guard let pid = try integer(.programPID, as: Int32.self), let command = try text(.programCommand),
                  let uid = try integer(.programUID, as: UInt32.self) else {
                throw corrupt("program_state \"program\" without its pid, command and uid")
            }
            return .program(ProgramFacts(pid: pid, command: command, executable: try text(.programExecutable), uid: uid,
                                         user: try text(.programUser)))
        case .socketGone, .notLocal, .unavailable:
            guard facts.allSatisfy({ values[$0] == .null }) else { throw corrupt("a program's facts beside program_state \"\(raw)\"") }
            switch state {
            case .socketGone: return .socketGone
            case .notLocal: return .notLocal
            default:
                guard let detail = try text(.programDetail) else { throw corrupt("program_state \"unavailable\" without program_detail") }
                return .unavailable(detail)
            }
        }
    }

    /// The machine's end of `key`, when it was recorded.
    func localEnd(of key: FlowKey) throws(StoreError) -> IPEndpoint? {
        switch try integer(.localEnd) {
        case nil: return nil
        case 0: return key.endpointA
        case 1: return key.endpointB
        case let value?: throw corrupt("local_end \(value) is not 0 or 1")
        }
    }

    func dnsExchange() throws(StoreError) -> DNSExchange? {
        let replyColumns: [FlowFactColumn] = [.dnsReplyCode, .dnsReplyCount, .dnsReplyAnswers]
        guard let question = try text(.dnsQuery) else {
            guard ([.dnsQueryType] + replyColumns).allSatisfy({ values[$0] == .null }) else {
                throw corrupt("a DNS reply or question type without dns_query")
            }
            return nil
        }
        guard let type = try integer(.dnsQueryType, as: UInt16.self) else { throw corrupt("dns_query without dns_query_type") }
        let code = try integer(.dnsReplyCode, as: UInt8.self)
        let count = try integer(.dnsReplyCount, as: UInt16.self)
        let answers = try text(.dnsReplyAnswers)
        guard (code == nil) == (count == nil), (code == nil) == (answers == nil) else {
            throw corrupt("dns_reply_code, dns_reply_count and dns_reply_answers not set together")
        }
        let reply = code.map { DNSReply(responseCode: $0, answerCount: Int(count ?? 0),
                                        answers: answers.map { $0.split(separator: " ").map(String.init) } ?? []) }
        return DNSExchange(question: question, questionType: type, reply: reply)
    }

    func proxyTarget() throws(StoreError) -> ProxyTarget? {
        guard let raw = try text(.proxyProtocol) else {
            guard [.proxyHost, .proxyPort, .proxyName].allSatisfy({ values[$0] == .null }) else {
                throw corrupt("proxy columns without proxy_protocol")
            }
            return nil
        }
        guard let proxyProtocol = ProxyProtocol(rawValue: raw) else { throw corrupt("proxy_protocol \"\(raw)\"") }
        guard let host = try text(.proxyHost), let port = try integer(.proxyPort, as: UInt16.self) else {
            throw corrupt("proxy_protocol without proxy_host and proxy_port")
        }
        return ProxyTarget(proxyProtocol: proxyProtocol, host: host, port: port)
    }

    func streamOpening() throws(StoreError) -> StreamOpening? {
        // An opening a newer build named is not known here: no reading, the row stays readable.
        guard let raw = try text(.streamOpening) else { return nil }
        return StreamOpening(stored: raw)
    }

    // MARK: Typed columns

    private func corrupt(_ detail: String) -> StoreError { .corruptRow("\(row): \(detail)") }

    private func integer(_ column: FlowFactColumn) throws(StoreError) -> Int64? {
        switch values[column] {
        case .null: return nil
        case let .integer(value): return value
        default: throw corrupt("\(column.rawValue) is not an integer")
        }
    }

    private func integer<Value: FixedWidthInteger>(_ column: FlowFactColumn, as type: Value.Type) throws(StoreError) -> Value? {
        guard let value = try integer(column) else { return nil }
        guard let exact = Value(exactly: value), exact >= 0 else { throw corrupt("\(column.rawValue) \(value) is out of range") }
        return exact
    }

    private func flag(_ column: FlowFactColumn) throws(StoreError) -> Bool? {
        switch try integer(column) {
        case nil: return nil
        case 0: return false
        case 1: return true
        case let value?: throw corrupt("\(column.rawValue) \(value) is not 0 or 1")
        }
    }

    private func text(_ column: FlowFactColumn) throws(StoreError) -> String? {
        switch values[column] {
        case .null: return nil
        case let .text(value): return value
        default: throw corrupt("\(column.rawValue) is not text")
        }
    }
}
