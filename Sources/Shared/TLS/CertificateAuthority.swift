import Foundation

/// The local certificate authority's core: a P-256 root key and its self-signed root certificate,
/// minting short-lived leaves for the hosts an inspected client asks for, cached per host.
///
/// A `final class` with an `NSLock`, not the seed's actor: the tunnel's relay calls `mintLeaf`
/// synchronously on its one event-loop thread, where an actor hop per handshake is a suspension
/// the loop cannot take (PacketPipeline.swift, Relay.swift). The lock guards the cache and the
/// counter; the key and root are immutable. NSLock rather than `Mutex`, which TSan misreports.
///
/// `@unchecked Sendable`: `leaves` and `minted` are read and changed only under `lock` (an
/// `NSLock`); every other property is a `let`, `rootKey` an `X509SigningKey` that is safe to sign
/// with from several threads.
package final class CertificateAuthority: @unchecked Sendable {
    package struct Configuration: Sendable, Equatable {
        /// The root's subject (and so every leaf's issuer).
        var rootName: X509Name
        /// The organization every leaf's subject names, beside its host.
        var leafOrganization: String
        /// How long a new root is valid: ten years — it is the person's own, made once, and
        /// remaking it means handing the new one to everything that trusted the old.
        var rootValidity: TimeInterval
        /// How long a leaf is valid: 30 days, well under the 398 days browsers accept (Apple's and
        /// Chrome's cap since 2020), so any client that checks validity accepts it, while a leaf
        /// lifted from memory is soon worthless. The cache mints a fresh one when the held one
        /// has less than `leafRenewal` left, so a long session never presents an expired leaf.
        var leafValidity: TimeInterval
        var leafRenewal: TimeInterval
        /// How far into the past notBefore is set: an hour absorbs a client whose clock runs
        /// behind ours.
        var backdating: TimeInterval

        package init(rootName: X509Name = X509Name([X509Name.commonName("TunnelVision Local CA"),
                                                   X509Name.organization("TunnelVision (this machine only)")]),
                    leafOrganization: String = "TunnelVision inspection",
                    rootValidity: TimeInterval = 3_650 * 86_400, leafValidity: TimeInterval = 30 * 86_400,
                    leafRenewal: TimeInterval = 86_400, backdating: TimeInterval = 3_600) {
            self.rootName = rootName
            self.leafOrganization = leafOrganization
            self.rootValidity = rootValidity
            self.leafValidity = leafValidity
            self.leafRenewal = leafRenewal
            self.backdating = backdating
        }
    }

    /// The root certificate, DER.
    package let rootCertificateDER: [UInt8]
    /// What the root says of itself, read back from its DER.
    package let root: X509RootFacts
    let rootKey: X509SigningKey
    private let rootKeyIdentifier: [UInt8]
    private let configuration: Configuration
    private let now: @Sendable () -> Date

    private let lock = NSLock()
    private var leaves: [String: CachedLeaf] = [:]
    private var minted = 0

    private struct CachedLeaf {
        let certificate: MintedCertificate
        let notAfter: Date
    }

    init(rootKey: X509SigningKey, rootCertificateDER: [UInt8], root: X509RootFacts, configuration: Configuration,
         now: @escaping @Sendable () -> Date) throws(CertificateAuthorityError) {
        guard let identifier = X509Extension.keyIdentifier(ofSubjectPublicKeyInfo: root.subjectPublicKeyInfo) else {
            throw .rootUnreadable("its public key cannot be read")
        }
        self.rootKey = rootKey
        self.rootCertificateDER = rootCertificateDER
        self.root = root
        self.rootKeyIdentifier = identifier
        self.configuration = configuration
        self.now = now
    }

    /// A new root: a fresh P-256 key and its self-signed certificate, CA:TRUE with a path length of
    /// 0 (it signs leaves, never another CA), keyCertSign and cRLSign, both critical.
    package static func generate(configuration: Configuration = Configuration(),
                                now: @escaping @Sendable () -> Date = Date.init) throws(CertificateAuthorityError) -> CertificateAuthority {
        do {
            let key = try X509SigningKey.generateP256()
            let publicKey = try key.subjectPublicKeyInfoDER()
            guard let identifier = X509Extension.keyIdentifier(ofSubjectPublicKeyInfo: publicKey) else {
                throw CertificateAuthorityError.rootUnreadable("OpenSSL's public key cannot be read")
            }
            let name = try configuration.rootName.der()
            let start = now()
            let builder = X509CertificateBuilder(
                serialNumber: try serialNumber(), issuer: name, subject: name,
                notBefore: start - configuration.backdating, notAfter: start + configuration.rootValidity,
                subjectPublicKeyInfo: publicKey,
                extensions: [.basicConstraints(isAuthority: true, pathLength: 0), .keyUsage([.keyCertSign, .cRLSign]),
                             .subjectKeyIdentifier(identifier)])
            let der = try builder.signed(by: key)
            return try make(rootKey: key, rootCertificateDER: der, configuration: configuration, now: now)
        } catch let error as CertificateAuthorityError {
            throw error
        } catch let error as X509Failure {
            throw .openSSL(error)
        } catch let error as DERWriterFailure {
            throw .openSSL(.encoding(error))
        } catch {
            throw .rootUnreadable("\(error)")
        }
    }

    /// A CA over a root made before (a key and certificate kept on disk): the certificate must
    /// read, and its public key must be the key's.
    package static func make(rootKey: X509SigningKey, rootCertificateDER: [UInt8], configuration: Configuration = Configuration(),
                            now: @escaping @Sendable () -> Date = Date.init) throws(CertificateAuthorityError) -> CertificateAuthority {
        guard let facts = X509RootFacts(certificateDER: rootCertificateDER) else {
            throw .rootUnreadable("it is not an X.509 certificate")
        }
        let publicKey: [UInt8]
        do { publicKey = try rootKey.subjectPublicKeyInfoDER() } catch { throw .openSSL(error) }
        guard publicKey == facts.subjectPublicKeyInfo else { throw .keyDoesNotMatchRoot }
        return try CertificateAuthority(rootKey: rootKey, rootCertificateDER: rootCertificateDER, root: facts,
                                        configuration: configuration, now: now)
    }

    /// How many leaves were actually minted (a cached answer is not one), for the stats.
    package var leavesMinted: Int {
        lock.lock()
        defer { lock.unlock() }
        return minted
    }

    /// Forgets every cached leaf; the next mint for any host makes a new one.
    package func clearLeafCache() {
        lock.lock()
        defer { lock.unlock() }
        leaves.removeAll()
    }

    /// The leaf for `host` (a DNS name, or an IPv4 or IPv6 literal, which becomes an iPAddress
    /// SAN), also naming `sans`. A second call for the same host and names answers the cached
    /// leaf and mints nothing, unless it is within `leafRenewal` of expiring.
    package func mintLeaf(forHost host: String, sans: [String] = []) throws(CertificateAuthorityError) -> MintedCertificate {
        let names = try ([host] + sans).map(LeafName.init)
        let key = names.map(\.cacheKey).joined(separator: " ")
        let start = now()
        lock.lock()
        defer { lock.unlock() }
        if let cached = leaves[key], cached.notAfter - configuration.leafRenewal > start {
            return cached.certificate
        }
        let (certificate, notAfter) = try mint(host: host, names: names, at: start)
        leaves[key] = CachedLeaf(certificate: certificate, notAfter: notAfter)
        minted += 1
        return certificate
    }

    private func mint(host: String, names: [LeafName], at start: Date) throws(CertificateAuthorityError) -> (MintedCertificate, Date) {
        do {
            let key = try X509SigningKey.generateP256()
            let publicKey = try key.subjectPublicKeyInfoDER()
            // A common name holds 64 characters at most (RFC 5280 ub-common-name); the SAN is what
            // clients match, and the organization keeps the subject non-empty without it.
            var subject = [X509Name.organization(configuration.leafOrganization)]
            if host.utf8.count <= 64 { subject.append(X509Name.commonName(host)) }
            let notAfter = min(start + configuration.leafValidity, root.notAfter)
            var seen = Set<X509Extension.AlternativeName>()
            var extensions: [X509Extension] = [
                .basicConstraints(isAuthority: false, pathLength: nil), .keyUsage([.digitalSignature]),
                try .extendedKeyUsage([X509ObjectIdentifiers.serverAuth]),
                try .subjectAlternativeNames(names.map(\.alternativeName).filter { seen.insert($0).inserted }),
                .authorityKeyIdentifier(rootKeyIdentifier),
            ]
            if let identifier = X509Extension.keyIdentifier(ofSubjectPublicKeyInfo: publicKey) {
                extensions.append(.subjectKeyIdentifier(identifier))
            }
            let builder = X509CertificateBuilder(
                serialNumber: try Self.serialNumber(), issuer: root.subjectDER, subject: try X509Name(subject).der(),
                notBefore: start - configuration.backdating, notAfter: notAfter,
                subjectPublicKeyInfo: publicKey, extensions: extensions)
            let der = try builder.signed(by: rootKey)
            return (MintedCertificate(host: host, certificateDER: Data(der), privateKeyDER: Data(try key.pkcs8DER())), notAfter)
        } catch let error as X509Failure {
            throw .openSSL(error)
        } catch let error as DERWriterFailure {
            throw .openSSL(.encoding(error))
        } catch {
            throw .openSSL(.openSSL("mint", "\(error)"))
        }
    }

    /// 16 random bytes with the top bit clear (a positive INTEGER, §4.1.2.2) and the next one set,
    /// so it is never zero and always 16 bytes long: 126 bits of OpenSSL's randomness.
    static func serialNumber() throws(X509Failure) -> [UInt8] {
        var bytes = try X509Digest.randomBytes(16)
        bytes[0] = bytes[0] & 0x7F | 0x40
        return bytes
    }
}
