import Shared

/// Whether, and how, `run --inspect` gives NSS readers — Chromium, which on Linux trusts the
/// certificates of `$HOME/.pki/nssdb`, never the system bundle — the local root for CMD alone:
/// decided from a look at CMD's home (`InspectionNSSHome`) and at which tools this machine has,
/// with no I/O. `InspectionNSSDatabase` carries it out.
///
/// The grant: a private NSS database in the run's trust directory — a copy of the user's own when
/// there is one, so their certificates and settings keep working inside CMD, plus the root as a
/// trusted CA — owned by CMD's user (NSS opens it read-write), bind-mounted over
/// `<home>/.pki/nssdb` inside CMD's own mount namespace. The user's database is only read; what
/// CMD writes to the copy goes with the run.
///
/// With no database in the home, the mount needs a directory to land on. Mounting over the
/// nearest existing ancestor would mean the home itself when `.pki` is absent: a home cannot be
/// copied, and an overlay over it would either throw away every other write CMD makes there or
/// need a work directory on the home's own filesystem. So the plan makes exactly the missing
/// directories — empty, 0700 and the user's, as Chromium would make them — and the run removes
/// exactly those afterwards, each only if still empty (what someone else put there is theirs),
/// or the last of the runs sharing them does (`InspectionNSSMountPoint`).
/// The home ends as it was; the empty mount point is visible outside CMD only while the run lasts,
/// and a killed run's is removed by the next run's sweep.
package struct InspectionNSSPlan: Sendable, Equatable {
    /// Where NSS readers look, below the home: the shared database of Chromium (and of NSS's own
    /// tools when they are pointed at it).
    package static let databaseComponents = [".pki", "nssdb"]
    /// The private database, in the run's trust directory.
    static let directoryName = "nssdb"
    package static let nickname = "TunnelVision local root (this run only)"

    package enum Decision: Sendable, Equatable {
        case grant(Grant)
        /// Nothing is done for NSS; the run goes ahead and says this once.
        case skip(notice: String)
    }

    package struct Grant: Sendable, Equatable {
        package let home: String
        /// The private database.
        package let database: String
        /// The user's database, read to make the copy; nil: the private one starts empty.
        package let userDatabase: String?
        /// The files of the user's database (its folders are no part of it), copied as they are.
        package let copied: [String]
        /// The directories made for the mount point, relative to the home, outer first.
        package let created: [String]
        /// Who the private database (and the directories made) belong to: CMD's user; nil: root.
        package let owner: CommandAccount?
        /// certutil adding the root, as CMD's user (never as root over the user's files: their
        /// `pkcs11.txt` names libraries NSS loads). `-f /dev/null`: a database with a password
        /// fails at once instead of asking on the terminal.
        package let command: [String]
        package let mount: InspectionTrustPlan.Mount
    }

    package let decision: Decision

    /// `home`: what was seen of CMD's home, nil when CMD has none we know. `rootFile`: the local
    /// root alone, readable by CMD's user (the trust plan's `rootFile`).
    package init(home: InspectionNSSHome?, account: CommandAccount?, certutil: String?, setpriv: String?,
                 privateDirectory: String, rootFile: String) {
        decision = Self.decide(home: home, account: account, certutil: certutil, setpriv: setpriv,
                               privateDirectory: privateDirectory, rootFile: rootFile)
    }

    private static func decide(home: InspectionNSSHome?, account: CommandAccount?, certutil: String?, setpriv: String?,
                               privateDirectory: String, rootFile: String) -> Decision {
        guard let certutil else {
            return .skip(notice: notice("certutil is not installed (on Debian and Ubuntu: apt-get install libnss3-tools; "
                                        + "on Fedora: dnf install nss-tools)"))
        }
        guard let home, home.path.hasPrefix("/") else {
            return .skip(notice: notice("the command has no home directory to find a database in"))
        }
        guard home.status?.kind == .directory else {
            return .skip(notice: notice("\(home.path), the command's home, is not a directory"))
        }
        let user = account?.name ?? "root"
        // Below the home the user decides what is there: only their own directories and files are
        // read, so nothing another account keeps there leaves through the copy.
        func foreign(_ status: PathStatus) -> Bool { account.map { status.owner != $0.uid } ?? false }
        var path = home.path, created: [String] = []
        for (index, component) in databaseComponents.enumerated() {
            path += "/" + component
            guard index < home.along.count else {
                created.append(databaseComponents[...index].joined(separator: "/"))
                continue
            }
            let status = home.along[index]
            guard status.kind == .directory else {
                return .skip(notice: notice("\(path) is \(words(status.kind)), not a directory"))
            }
            if foreign(status) { return .skip(notice: notice("\(path) is not \(user)'s")) }
        }
        var copied: [String] = []
        for (name, status) in home.databaseEntries.sorted(by: { $0.key < $1.key }) where status.kind != .directory {
            guard status.kind == .regularFile else {
                return .skip(notice: notice("\(path)/\(name) is \(words(status.kind)), not a file a database holds"))
            }
            if foreign(status) { return .skip(notice: notice("\(path)/\(name) is not \(user)'s")) }
            copied.append(name)
        }
        var prefix: [String] = []
        if let account {
            guard let setpriv else {
                return .skip(notice: notice("setpriv (util-linux), which prepares the database as \(user), is not installed"))
            }
            prefix = [setpriv, "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups", "--"]
        }
        let database = privateDirectory + "/" + directoryName
        return .grant(Grant(home: home.path, database: database,
                            userDatabase: created.isEmpty ? path : nil, copied: created.isEmpty ? copied : [],
                            created: created, owner: account,
                            command: prefix + [certutil, "-A", "-d", "sql:" + database, "-t", "C,,", "-n", nickname,
                                               "-i", rootFile, "-f", "/dev/null"],
                            mount: .init(source: database, target: path, noLinksBeneath: home.path)))
    }

    /// The home NSS readers of CMD look in: the account's when CMD drops to one (it gets that
    /// HOME), else our HOME, which CMD inherits, else root's from the user database — where
    /// Chromium looks when HOME is unset.
    package static func home(account: CommandAccount?, environment: [String: String], rootHome: () -> String?) -> String? {
        if let account { return account.home }
        if let home = environment["HOME"], !home.isEmpty { return home }
        return rootHome()
    }

    /// The one line a run without NSS trust prints.
    package static func notice(_ reason: String) -> String {
        "NSS readers (Chromium) will not trust the local CA in this run: \(reason)"
    }

    private static func words(_ kind: PathStatus.Kind) -> String {
        switch kind {
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .regularFile: "a file"
        case .socket: "a socket"
        case .other: "a device or pipe"
        }
    }
}
