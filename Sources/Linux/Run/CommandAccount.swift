#if canImport(Glibc)
import Glibc
#endif

/// The account the monitored command runs as when `run` was started through sudo: the invoking
/// user's uid, primary gid and supplementary groups, as `sudo -u` and `su` would give them, and
/// the HOME and name its environment gets.
package struct CommandAccount: Sendable, Equatable {
    package let uid: UInt32
    package let gid: UInt32
    /// Every group the account is in (getgrouplist), the primary one included.
    package let groups: [UInt32]
    package let name: String
    package let home: String

    package init(uid: UInt32, gid: UInt32, groups: [UInt32], name: String, home: String) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.name = name
        self.home = home
    }

    /// The uid and gid `sudo` was invoked by (`SUDO_UID`/`SUDO_GID`), when we run as root through
    /// it; nil for plain root (or sudo from root), where the command stays root.
    package static func invokingIDs(environment: [String: String], effectiveUserID: UInt32) -> (uid: UInt32, gid: UInt32)? {
        guard effectiveUserID == 0, let uid = environment["SUDO_UID"].flatMap(UInt32.init),
              let gid = environment["SUDO_GID"].flatMap(UInt32.init), uid != 0 else { return nil }
        return (uid, gid)
    }

    /// The invoking user's account from the user database, nil when there is no invoking user.
    /// Throws when SUDO_UID names no account: a command run as a half-known user would be wrong.
    package static func invoking(environment: [String: String], effectiveUserID: UInt32) throws(CommandStartFailure) -> CommandAccount? {
        guard let (uid, gid) = invokingIDs(environment: environment, effectiveUserID: effectiveUserID) else { return nil }
        guard let (name, home) = lookUp(uid: uid) else { throw .noAccount(uid: uid) }
        return CommandAccount(uid: uid, gid: gid, groups: groups(of: name, primary: gid), name: name, home: home)
    }

    /// The passwd entry's name and home (getpwuid_r, growing its buffer as asked).
    static func lookUp(uid: UInt32) -> (name: String, home: String)? {
        var size = 1024
        while size <= 1 << 20 {
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: size)
            let error = getpwuid_r(uid_t(uid), &entry, &buffer, size, &found)
            if error == ERANGE { size *= 2; continue }
            guard error == 0, found != nil, let name = entry.pw_name, let home = entry.pw_dir else { return nil }
            return (String(cString: name), String(cString: home))
        }
        return nil
    }

    /// getgrouplist's answer, growing the list as it asks.
    static func groups(of name: String, primary: UInt32) -> [UInt32] {
        var count: Int32 = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var asked = count
            if getgrouplist(name, gid_t(primary), &groups, &asked) >= 0 { return Array(groups.prefix(Int(asked))) }
            count = max(asked, count * 2)
        }
    }
}
