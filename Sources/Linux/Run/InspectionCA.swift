#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import Foundation
import Shared

/// The local CA as `run --inspect` reads it from the data directory: `ca/root.pem` (the root,
/// PEM) and `ca/root-key.pem` (its key, 0600). Interim, until `LocalCA.load(dataDirectory:)`
/// lands: `load` is the one place the files are read, so the switch is one line.
package struct InspectionCA: Sendable {

    /// The root certificate as it is on disk, PEM.
    package let rootPEM: Data
    /// The root's key, PEM; never logged, never copied anywhere.
    let keyPEM: Data
    /// `X509_subject_name_hash` of the root, as OpenSSL's hashed directory names it ("%08lx").
    package let subjectHash: String

    /// The CA in `dataDirectory`; nil only when it is known there is none (neither file exists).
    /// Anything else that is not a usable CA throws: doubt is never "no CA".
    package static func load(dataDirectory: URL) throws(InspectionCAProblem) -> InspectionCA? {
        // The layout is the data directory's, written once (`DataDirectoryLayout`), as `LocalCA` reads it.
        let rootPath = DataDirectoryLayout.caCertificate(in: dataDirectory).path
        let keyPath = DataDirectoryLayout.caKey(in: dataDirectory).path
        let root = try read(rootPath), key = try read(keyPath)
        switch (root, key) {
        case (nil, nil): return nil
        case (nil, _): throw .incomplete(missing: rootPath)
        case (_, nil): throw .incomplete(missing: keyPath)
        case let (root?, key?):
            if key.mode & 0o077 != 0 { throw .keyNotPrivate(path: keyPath, mode: key.mode) }
            return try InspectionCA(rootPEM: root.bytes, keyPEM: key.bytes, rootPath: rootPath, keyPath: keyPath)
        }
    }

    init(rootPEM: Data, keyPEM: Data, rootPath: String, keyPath: String) throws(InspectionCAProblem) {
        guard let root = Self.certificate(rootPEM) else { throw .corrupt(path: rootPath, reason: "not a PEM certificate") }
        defer { X509_free(root) }
        guard let key = Self.privateKey(keyPEM) else { throw .corrupt(path: keyPath, reason: "not a PEM private key") }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(root, key) == 1 else {
            ERR_clear_error()
            throw .corrupt(path: keyPath, reason: "the key is not the one of \(rootPath)")
        }
        self.rootPEM = rootPEM
        self.keyPEM = keyPEM
        subjectHash = String(format: "%08lx", X509_subject_name_hash(root))
    }

    /// A PEM certificate parsed; the caller frees it.
    static func certificate(_ pem: Data) -> OpaquePointer? {
        pem.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            let parsed = PEM_read_bio_X509(bio, nil, nil, nil)
            if parsed == nil { ERR_clear_error() }
            return parsed
        }
    }

    /// A PEM private key parsed; the caller frees it.
    static func privateKey(_ pem: Data) -> OpaquePointer? {
        pem.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            let parsed = PEM_read_bio_PrivateKey(bio, nil, nil, nil)
            if parsed == nil { ERR_clear_error() }
            return parsed
        }
    }

    /// The file's bytes and mode, read without following a link; nil when it does not exist.
    private static func read(_ path: String) throws(InspectionCAProblem) -> (bytes: Data, mode: mode_t)? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: SystemError.text(openingWithoutFollowing: errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        guard let bytes = try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() else {
            throw .unreadable(path: path, reason: SystemError.text(errno))
        }
        return (bytes, status.st_mode & 0o7777)
    }
}

/// Why the local CA could not be used, though it is there (at least in part). Each says which
/// file and what the person can do; none of them is "no CA".
package enum InspectionCAProblem: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case incomplete(missing: String)
    case keyNotPrivate(path: String, mode: mode_t)
    case corrupt(path: String, reason: String)

    package var description: String {
        let advice = "'tunnelvision ca show' says what it finds; 'tunnelvision ca remove' then 'tunnelvision ca create' makes a new one"
        return switch self {
        case let .unreadable(path, reason): "the local CA cannot be read: \(path): \(reason) (\(advice))"
        case let .incomplete(missing): "the local CA is incomplete: \(missing) is missing (\(advice))"
        case let .keyNotPrivate(path, mode):
            "the local CA's key \(path) is open to others (mode \(String(mode, radix: 8))); it must be 0600 "
                + "(chmod 600 \(path), or \(advice))"
        case let .corrupt(path, reason): "the local CA is damaged: \(path): \(reason) (\(advice))"
        }
    }
}
