/// Why the local CA in the data directory could not be made, read or removed. Each sentence says
/// what the person can do; none of them ever holds the key.
package enum LocalCAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `create` over a CA that is there: nothing was changed.
    case alreadyExists(directory: String)
    /// A file or directory could not be looked at, read, written or removed.
    case system(path: String, action: String, errno: Int32)
    /// The path is a symbolic link, owned by someone else, or open to others — the key would not
    /// be the person's alone. Nothing was read from it.
    case insecure(path: String, problem: String, fix: String)
    /// A file is there but does not hold what it should (a PEM key or certificate).
    case corrupt(path: String, problem: String)
    /// One of the two files is there and the other is not.
    case incomplete(present: String, missing: String)
    /// The key and certificate read but do not form a CA (a key of another root, a certificate
    /// that is not ours), or OpenSSL could not make one.
    case authority(path: String, CertificateAuthorityError)

    package var description: String {
        switch self {
        case let .alreadyExists(directory):
            "a local CA already exists in \(directory); nothing was changed. To make a new one, remove it first "
                + "('tunnelvision ca remove'): every place that trusts the old root then has to be given the new one."
        case let .system(path, action, errno):
            "cannot \(action) \(path): \(SystemError.text(errno))"
        case let .insecure(path, problem, fix):
            "\(path) \(problem), so it is not read. \(fix)"
        case let .corrupt(path, problem):
            "\(path) \(problem). Nothing was read from it; 'tunnelvision ca remove' deletes the CA so a new one can be made."
        case let .incomplete(present, missing):
            "\(present) is there but \(missing) is not, so the CA cannot be used. Put \(missing) back, or "
                + "'tunnelvision ca remove' deletes what is left so a new one can be made."
        case let .authority(path, error):
            "\(path): \(error). 'tunnelvision ca remove' deletes the CA so a new one can be made."
        }
    }
}
