#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The person's certificate authority, kept in the data directory:
///
///   <data-dir>/ca/              mode 0700
///   <data-dir>/ca/root-key.pem  the root's private key, PKCS#8 PEM, mode 0600
///   <data-dir>/ca/root.pem      the root certificate, PEM, mode 0600 (like every file there; `ca export` hands out copies)
///
/// The key never leaves this directory: it is not logged, printed, exported or captured; what is
/// handed out is the certificate. Reading refuses a key that is a symbolic link, not the user's,
/// or open to others, and answers nil only when it is known there is no CA (no `ca/`, or neither
/// file in it) — a file that cannot be read is an error, never "no CA".
package struct LocalCA: Sendable {
    package let authority: CertificateAuthority

    package var rootCertificateDER: Data { Data(authority.rootCertificateDER) }
    package var rootCertificatePEM: String { X509PEM.encode(authority.rootCertificateDER, label: X509PEM.certificateLabel) }
    /// SHA-256 of the root's DER as "AB:CD:…", the way `openssl x509 -fingerprint -sha256` prints it.
    package var fingerprintSHA256: String { X509Digest.colonHex(X509Digest.sha256(authority.rootCertificateDER)) }

    /// Makes a new CA and writes it; refuses (changing nothing) when one is there or when what is
    /// there cannot be read.
    package static func create(dataDirectory: URL, configuration: CertificateAuthority.Configuration = .init(),
                              now: @escaping @Sendable () -> Date = Date.init) throws(LocalCAError) -> LocalCA {
        let directory = DataDirectoryLayout.caDirectory(in: dataDirectory)
        if try load(dataDirectory: dataDirectory, configuration: configuration, now: now) != nil {
            throw .alreadyExists(directory: directory.path)
        }
        do { try PrivateDirectory.create(directory) } catch { throw .system(path: error.path, action: "create the directory", errno: error.errno) }
        let authority: CertificateAuthority
        let keyPEM: String
        do {
            authority = try CertificateAuthority.generate(configuration: configuration, now: now)
            keyPEM = X509PEM.encode(try authority.rootKey.pkcs8DER(), label: X509PEM.privateKeyLabel)
        } catch let error as CertificateAuthorityError {
            throw .authority(path: directory.path, error)
        } catch {
            throw .authority(path: directory.path, .openSSL(error as? X509Failure ?? .openSSL("generate", "\(error)")))
        }
        let ca = LocalCA(authority: authority)
        let key = DataDirectoryLayout.caKey(in: dataDirectory), certificate = DataDirectoryLayout.caCertificate(in: dataDirectory)
        try LocalCAFiles.writeNew(key, Array(keyPEM.utf8), mode: 0o600)
        do {
            try LocalCAFiles.writeNew(certificate, Array(ca.rootCertificatePEM.utf8), mode: 0o600)
        } catch {
            unlink(key.path)
            throw error
        }
        return ca
    }

    /// The CA in the data directory; nil only when it is known there is none.
    package static func load(dataDirectory: URL, configuration: CertificateAuthority.Configuration = .init(),
                            now: @escaping @Sendable () -> Date = Date.init) throws(LocalCAError) -> LocalCA? {
        let directory = DataDirectoryLayout.caDirectory(in: dataDirectory)
        guard try LocalCAFiles.checkDirectory(directory) else { return nil }
        let keyURL = DataDirectoryLayout.caKey(in: dataDirectory), certificateURL = DataDirectoryLayout.caCertificate(in: dataDirectory)
        let hasKey = try LocalCAFiles.exists(keyURL), hasCertificate = try LocalCAFiles.exists(certificateURL)
        switch (hasKey, hasCertificate) {
        case (false, false): return nil
        case (true, false): throw .incomplete(present: keyURL.path, missing: certificateURL.path)
        case (false, true): throw .incomplete(present: certificateURL.path, missing: keyURL.path)
        case (true, true): break
        }
        let keyText = try LocalCAFiles.read(keyURL, privateKey: true)
        guard let keyDER = X509PEM.decode(keyText, label: X509PEM.privateKeyLabel) else {
            throw .corrupt(path: keyURL.path, problem: "holds no PEM private key (PKCS#8, \"BEGIN PRIVATE KEY\")")
        }
        let key: X509SigningKey
        do { key = try X509SigningKey.fromPKCS8(keyDER) } catch {
            throw .corrupt(path: keyURL.path, problem: "is not a P-256 private key")
        }
        let certificateText = try LocalCAFiles.read(certificateURL, privateKey: false)
        guard let certificateDER = X509PEM.decode(certificateText, label: X509PEM.certificateLabel) else {
            throw .corrupt(path: certificateURL.path, problem: "holds no PEM certificate")
        }
        do {
            return LocalCA(authority: try CertificateAuthority.make(rootKey: key, rootCertificateDER: certificateDER,
                                                                    configuration: configuration, now: now))
        } catch {
            throw .authority(path: directory.path, error)
        }
    }

    /// Deletes the key and the certificate, then the directory. True when there was a CA to
    /// remove; false when there was none. Files of others in `ca/` are left, and said.
    @discardableResult
    package static func remove(dataDirectory: URL) throws(LocalCAError) -> Bool {
        let directory = DataDirectoryLayout.caDirectory(in: dataDirectory)
        guard try LocalCAFiles.checkDirectory(directory) else { return false }
        var removed = false
        for file in [DataDirectoryLayout.caKey(in: dataDirectory), DataDirectoryLayout.caCertificate(in: dataDirectory)] {
            if unlink(file.path) == 0 {
                removed = true
            } else if errno != ENOENT {
                throw .system(path: file.path, action: "remove", errno: errno)
            }
        }
        LocalCAFiles.removeLeftovers(in: directory)
        guard rmdir(directory.path) == 0 else { throw .system(path: directory.path, action: "remove the directory", errno: errno) }
        return removed
    }
}
