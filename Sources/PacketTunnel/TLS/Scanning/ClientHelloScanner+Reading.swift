import Shared

extension ClientHelloScanner {
    /// What one ClientHello body gave: the name's outcome and, when the hello was sound, the offer
    /// and the limits it sets.
    struct Reading {
        var name: Outcome
        var offer: ClientTLSOffer?
        var limits: ClientTLSLimits?
        /// JA4 and JA3, when the offer was sound.
        var fingerprints: ClientHelloFingerprints?
    }

    /// Reads a ClientHello body.
    ///
    /// Grammar (RFC 8446 §4.1.2; RFC 5246 §7.4.1.2, where the extensions block may be absent):
    ///   legacy_version(2) · random(32) · legacy_session_id<0..32> · cipher_suites<2..2^16-2> ·
    ///   legacy_compression_methods<1..2^8-1> · [extensions<0..2^16-1>]
    ///   Extension: extension_type(2) · extension_data<0..2^16-1>
    /// Inner lengths must end exactly where the outer ones do. A block that breaks after
    /// server_name keeps the name and costs the offer; one that breaks before it costs both.
    /// The fingerprints (`ClientHelloFingerprints`) are computed here, once, from the lists the
    /// walk gathered; the lists are not kept.
    static func read(_ body: UnsafeRawBufferPointer, config: Config, transport: ClientHelloTraits.Transport = .tcp) -> Reading {
        var reader = TLSByteReader(body)
        guard let legacyVersion = reader.readUInt16(), reader.skip(32),
              let sessionID = reader.readVector(lengthBytes: 1), sessionID.remaining <= 32,
              let suites = reader.readVector(lengthBytes: 2), suites.remaining >= 2, suites.remaining % 2 == 0,
              let compression = reader.readVector(lengthBytes: 1), compression.remaining >= 1
        else { return Reading(name: .unavailable(.malformed), offer: nil) }
        let ceiling = TLSProtocolVersion(rawValue: legacyVersion)
        let offeredSuites = codePoints(suites)
        let cipherSuites = offeredSuites.filter { !ClientTLSLimits.signallingSuites.contains($0) }
        if reader.isAtEnd {
            let traits = ClientHelloTraits(transport: transport, legacyVersion: legacyVersion, cipherSuites: offeredSuites,
                                           extensionTypes: [])
            return Reading(name: .unavailable(.noServerName), offer: ClientTLSOffer(versions: .upTo(ceiling)),
                           limits: ClientTLSLimits(versions: .upTo(ceiling), cipherSuites: cipherSuites),
                           fingerprints: config.computesFingerprints ? ClientHelloFingerprints(traits) : nil)
        }
        guard var extensions = reader.readVector(lengthBytes: 2), reader.isAtEnd else {
            return Reading(name: .unavailable(.malformed), offer: nil)
        }
        var walk = ExtensionWalk(config: config)
        while !extensions.isAtEnd {
            guard let type = extensions.readUInt16(), let data = extensions.readVector(lengthBytes: 2) else {
                return Reading(name: walk.name ?? .unavailable(.malformed), offer: nil)
            }
            walk.read(type: type, data: data)
        }
        let offer = walk.offer(ceiling: ceiling)
        let fingerprints = offer != nil && config.computesFingerprints
            ? ClientHelloFingerprints(walk.traits(transport: transport, legacyVersion: legacyVersion, cipherSuites: offeredSuites))
            : nil
        return Reading(name: walk.name ?? .unavailable(.noServerName), offer: offer,
                       limits: offer.flatMap { walk.limits(versions: $0.versions, cipherSuites: cipherSuites) },
                       fingerprints: fingerprints)
    }

    /// A vector of 16-bit code points (cipher suites, groups, signature schemes), GREASE removed.
    /// The caller has checked the length is even.
    static func codePoints(_ vector: TLSByteReader) -> [UInt16] {
        var vector = vector
        var values: [UInt16] = []
        values.reserveCapacity(vector.remaining / 2)
        while let value = vector.readUInt16() {
            if !TLSWire.isGREASE(value) { values.append(value) }
        }
        return values
    }

    /// The extensions read, gathered as the block is walked once.
    private struct ExtensionWalk {
        let config: Config
        var name: Outcome?
        /// The first host_name's bytes as text, when they are no host name.
        var nameAsSent: String?
        var offerIsSound = true
        var listedVersions: [TLSProtocolVersion]?
        var applicationProtocols: [String] = []
        var omittedApplicationProtocols = 0
        var sawALPN = false
        var hasEncryptedClientHello = false
        var groups: [UInt16]?
        var signatureAlgorithms: [UInt16]?
        /// A groups or signature list that is unsound or repeated: the limits are not known.
        var limitsAreSound = true
        /// What only the fingerprints read: every extension type in order, the raw
        /// supported_versions values, the point formats and the first ALPN name's bytes.
        var extensionTypes: [UInt16] = []
        var supportedVersionValues: [UInt16]?
        var pointFormats: [UInt8] = []
        var firstApplicationProtocol: [UInt8]?

        init(config: Config) { self.config = config }

        mutating func read(type: UInt16, data: TLSByteReader) {
            if !TLSWire.isGREASE(type) { extensionTypes.append(type) }
            switch type {
            case TLSWire.serverNameExtension:
                // RFC 8446 §4.2: one extension of a type per block. Two names: neither is trusted.
                if name == nil {
                    (name, nameAsSent) = ClientHelloScanner.serverName(data)
                } else {
                    name = .unavailable(.malformed)
                }
            case TLSWire.alpnExtension:
                if sawALPN { offerIsSound = false }
                sawALPN = true
                if !readApplicationProtocols(data) { offerIsSound = false }
            case TLSWire.supportedVersionsExtension:
                if listedVersions != nil { offerIsSound = false }
                listedVersions = ClientHelloScanner.supportedVersions(data)
                if listedVersions == nil { offerIsSound = false }
                supportedVersionValues = listedVersions?.map(\.rawValue)
            case TLSWire.encryptedClientHelloExtension:
                if hasEncryptedClientHello { offerIsSound = false }
                hasEncryptedClientHello = true
            case TLSWire.supportedGroupsExtension:
                // NamedGroup named_group_list<2..2^16-1> (RFC 8446 §4.2.7).
                if groups != nil { limitsAreSound = false }
                groups = ClientHelloScanner.codePointList(data)
                if groups == nil { limitsAreSound = false }
            case TLSWire.signatureAlgorithmsExtension:
                // SignatureScheme supported_signature_algorithms<2..2^16-2> (RFC 8446 §4.2.3).
                if signatureAlgorithms != nil { limitsAreSound = false }
                signatureAlgorithms = ClientHelloScanner.codePointList(data)
                if signatureAlgorithms == nil { limitsAreSound = false }
            case TLSWire.pointFormatsExtension:
                // ECPointFormat ec_point_format_list<1..2^8-1> (RFC 8422 §5.1.2): fingerprints only.
                var data = data
                if let list = data.readVector(lengthBytes: 1), data.isAtEnd { pointFormats = Array(list.rest) }
            default:
                break
            }
        }

        func offer(ceiling: TLSProtocolVersion) -> ClientTLSOffer? {
            guard offerIsSound else { return nil }
            return ClientTLSOffer(versions: listedVersions.map { .listed($0) } ?? .upTo(ceiling),
                                  applicationProtocols: applicationProtocols,
                                  omittedApplicationProtocols: omittedApplicationProtocols,
                                  hasEncryptedClientHello: hasEncryptedClientHello, serverNameAsSent: nameAsSent)
        }

        func traits(transport: ClientHelloTraits.Transport, legacyVersion: UInt16,
                    cipherSuites: [UInt16]) -> ClientHelloTraits {
            ClientHelloTraits(transport: transport, legacyVersion: legacyVersion, cipherSuites: cipherSuites,
                              extensionTypes: extensionTypes, supportedVersions: supportedVersionValues,
                              signatureAlgorithms: signatureAlgorithms ?? [], groups: groups ?? [],
                              pointFormats: pointFormats, firstApplicationProtocol: firstApplicationProtocol)
        }

        func limits(versions: OfferedTLSVersions, cipherSuites: [UInt16]) -> ClientTLSLimits? {
            guard limitsAreSound else { return nil }
            return ClientTLSLimits(versions: versions, cipherSuites: cipherSuites, groups: groups,
                                   signatureAlgorithms: signatureAlgorithms)
        }

        /// RFC 7301 §3.1: ProtocolName protocol_name_list<2..2^16-1>; ProtocolName<1..2^8-1>.
        /// GREASE names (RFC 8701 §3.3) are dropped silently; an unprintable, overlong or
        /// over-the-cap name is counted as omitted. False when the list is unsound.
        private mutating func readApplicationProtocols(_ data: TLSByteReader) -> Bool {
            var data = data
            guard var list = data.readVector(lengthBytes: 2), data.isAtEnd, !list.isAtEnd else { return false }
            while !list.isAtEnd {
                guard let entry = list.readVector(lengthBytes: 1), entry.remaining >= 1 else { return false }
                let bytes = entry.rest
                if bytes.count == 2, TLSWire.isGREASE(UInt16(bytes[0]) << 8 | UInt16(bytes[1])) { continue }
                if firstApplicationProtocol == nil { firstApplicationProtocol = Array(bytes) }
                guard applicationProtocols.count < config.maxApplicationProtocols,
                      bytes.count <= config.maxApplicationProtocolLength,
                      bytes.allSatisfy({ (0x21...0x7E).contains($0) })
                else {
                    omittedApplicationProtocols += 1
                    continue
                }
                // Printable ASCII: kept as the client wrote it, case included.
                applicationProtocols.append(String(decoding: bytes, as: UTF8.self))
            }
            return true
        }
    }

    /// An extension holding one vector of 16-bit code points with a 2-byte length, and nothing
    /// after it; nil when unsound (a length that lies, an odd count, an empty list).
    static func codePointList(_ data: TLSByteReader) -> [UInt16]? {
        var data = data
        guard let list = data.readVector(lengthBytes: 2), data.isAtEnd,
              list.remaining >= 2, list.remaining % 2 == 0 else { return nil }
        return codePoints(list)
    }

    /// RFC 8446 §4.2.1, the ClientHello form: ProtocolVersion versions<2..254>. GREASE removed;
    /// a draft or unknown version kept raw. Nil when the list is unsound.
    static func supportedVersions(_ data: TLSByteReader) -> [TLSProtocolVersion]? {
        var data = data
        guard var list = data.readVector(lengthBytes: 1), data.isAtEnd,
              list.remaining >= 2, list.remaining % 2 == 0 else { return nil }
        var versions: [TLSProtocolVersion] = []
        versions.reserveCapacity(list.remaining / 2)
        while let value = list.readUInt16() {
            if !TLSWire.isGREASE(value) { versions.append(TLSProtocolVersion(rawValue: value)) }
        }
        return versions
    }

    /// RFC 6066 §3: ServerName server_name_list<1..2^16-1>; ServerName: name_type(1) ·
    /// HostName<1..2^16-1> (for host_name, the only type defined). The first host_name is the
    /// name; an extension with no data or an empty list names nothing. A host_name that is no
    /// host name names nothing either, and comes back as sent (`ServerNameAsSent`).
    static func serverName(_ data: TLSByteReader) -> (Outcome, asSent: String?) {
        var data = data
        if data.isAtEnd { return (.unavailable(.noServerName), nil) }
        guard var list = data.readVector(lengthBytes: 2), data.isAtEnd else { return (.unavailable(.malformed), nil) }
        while !list.isAtEnd {
            guard let type = list.readUInt8(), let name = list.readVector(lengthBytes: 2) else {
                return (.unavailable(.malformed), nil)
            }
            if type == TLSWire.hostNameType {
                if let host = HostNameRule.hostName(from: name.rest) { return (.found(host), nil) }
                return (.unavailable(.malformed), name.rest.isEmpty ? nil : ServerNameAsSent.text(name.rest))
            }
        }
        return (.unavailable(.noServerName), nil)
    }
}
