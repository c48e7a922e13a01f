import Foundation
import Linux
import Shared
import Testing

/// Whether and how NSS readers (Chromium) get the run's root, decided from a look at CMD's home
/// and the tools there are — no I/O, every case built directly.
@Suite("The NSS part of run --inspect's trust, as a plan")
struct InspectionNSSPlanTests {
    static let user = CommandAccount(uid: 1000, gid: 1000, groups: [1000], name: "ada", home: "/home/ada")
    static func directory(owner: uid_t = 1000) -> PathStatus { PathStatus(kind: .directory, mode: 0o700, owner: owner) }
    static func file(owner: uid_t = 1000) -> PathStatus { PathStatus(kind: .regularFile, mode: 0o600, owner: owner) }

    func plan(_ home: InspectionNSSHome?, account: CommandAccount? = user, certutil: String? = "/usr/bin/certutil",
              setpriv: String? = "/usr/bin/setpriv") -> InspectionNSSPlan.Decision {
        InspectionNSSPlan(home: home, account: account, certutil: certutil, setpriv: setpriv,
                          privateDirectory: "/tmp/tunnelvision-trust-1-abc", rootFile: "/tmp/tunnelvision-trust-1-abc/root.pem").decision
    }

    @Test("a user's database is copied, file by file, into the run's private one, mounted over it, certutil run as that user")
    func existingDatabase() throws {
        let home = InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: [Self.directory(), Self.directory()],
                                     databaseEntries: ["cert9.db": Self.file(), "key4.db": Self.file(), "pkcs11.txt": Self.file(),
                                                       "cache": Self.directory()])
        guard case .grant(let grant) = plan(home) else { Issue.record("no grant"); return }
        #expect(grant.userDatabase == "/home/ada/.pki/nssdb")
        #expect(grant.copied == ["cert9.db", "key4.db", "pkcs11.txt"])
        #expect(grant.created.isEmpty)
        #expect(grant.database == "/tmp/tunnelvision-trust-1-abc/nssdb")
        #expect(grant.mount == .init(source: grant.database, target: "/home/ada/.pki/nssdb", noLinksBeneath: "/home/ada"))
        #expect(grant.command == ["/usr/bin/setpriv", "--reuid=1000", "--regid=1000", "--clear-groups", "--",
                                  "/usr/bin/certutil", "-A", "-d", "sql:/tmp/tunnelvision-trust-1-abc/nssdb", "-t", "C,,",
                                  "-n", InspectionNSSPlan.nickname, "-i", "/tmp/tunnelvision-trust-1-abc/root.pem", "-f", "/dev/null"])
        #expect(grant.owner == Self.user)
    }

    @Test("a home without a database gets exactly the missing folders for the mount, outer first, and a new database")
    func noDatabase() throws {
        guard case .grant(let none) = plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: [])) else {
            Issue.record("no grant"); return
        }
        #expect(none.created == [".pki", ".pki/nssdb"] && none.userDatabase == nil && none.copied.isEmpty)
        guard case .grant(let half) = plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: [Self.directory()])) else {
            Issue.record("no grant"); return
        }
        #expect(half.created == [".pki/nssdb"])
    }

    @Test("root's run needs no setpriv and owns the database itself")
    func rootRun() throws {
        guard case .grant(let grant) = plan(InspectionNSSHome(path: "/root", status: Self.directory(owner: 0), along: []),
                                            account: nil, setpriv: nil) else { Issue.record("no grant"); return }
        #expect(grant.command.first == "/usr/bin/certutil")
        #expect(grant.owner == nil)
    }

    @Test("without certutil, or anything unsound on the way, nothing is done and one notice says why", arguments: [
        ("certutil", "certutil is not installed (on Debian and Ubuntu: apt-get install libnss3-tools; on Fedora: dnf install nss-tools)"),
        ("no home", "the command has no home directory to find a database in"),
        ("home is a file", "/home/ada, the command's home, is not a directory"),
        ("link", "/home/ada/.pki is a symbolic link, not a directory"),
        ("foreign folder", "/home/ada/.pki/nssdb is not ada's"),
        ("foreign file", "/home/ada/.pki/nssdb/cert9.db is not ada's"),
        ("pipe", "/home/ada/.pki/nssdb/key4.db is a device or pipe, not a file a database holds"),
        ("setpriv", "setpriv (util-linux), which prepares the database as ada, is not installed"),
    ])
    func skipped(kase: String, reason: String) {
        let sound = InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: [Self.directory(), Self.directory()])
        let decision: InspectionNSSPlan.Decision = switch kase {
        case "certutil": plan(sound, certutil: nil)
        case "no home": plan(nil)
        case "home is a file": plan(InspectionNSSHome(path: "/home/ada", status: Self.file(), along: []))
        case "link": plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(),
                                            along: [PathStatus(kind: .symbolicLink, mode: 0o777, owner: 1000)]))
        case "foreign folder": plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(),
                                                      along: [Self.directory(), Self.directory(owner: 0)]))
        case "foreign file": plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: sound.along,
                                                    databaseEntries: ["cert9.db": Self.file(owner: 0)]))
        case "pipe": plan(InspectionNSSHome(path: "/home/ada", status: Self.directory(), along: sound.along,
                                            databaseEntries: ["key4.db": PathStatus(kind: .other, mode: 0o600, owner: 1000)]))
        default: plan(sound, setpriv: nil)
        }
        #expect(decision == .skip(notice: InspectionNSSPlan.notice(reason)))
    }

    @Test("the home is the account's when CMD drops to one, else HOME, else root's")
    func whichHome() {
        #expect(InspectionNSSPlan.home(account: Self.user, environment: ["HOME": "/root"]) { "/root" } == "/home/ada")
        #expect(InspectionNSSPlan.home(account: nil, environment: ["HOME": "/srv/x"]) { "/root" } == "/srv/x")
        #expect(InspectionNSSPlan.home(account: nil, environment: [:]) { "/root" } == "/root")
    }
}
