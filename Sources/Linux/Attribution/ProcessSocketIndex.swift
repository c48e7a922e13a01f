#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Which process holds a socket, from /proc: every /proc/PID/fd/N that links to `socket:[INODE]`.
/// Asked once per connection, so the search is kept short:
///   1. the processes that held this namespace's sockets before, the latest first — a program
///      that opens one connection opens the next;
///   2. then processes not seen yet (a new pid in /proc), if they are in the target's network
///      namespace (a `run`'s command and its children, a container's processes), newest first;
///   3. and only when neither finds it, every process again, in case a pid was reused.
/// Within a process the descriptor it last held a wanted socket on is tried first, then all of
/// them, highest first, stopping at the socket; the latest holders' /proc directories stay open
/// (`ProcessDirectory`). The sooner it is found, the likelier a short-lived process is still there
/// to be named. One process found for an inode is enough: a socket shared across a fork is the
/// parent's as much as the child's.
///
/// One owner at a time (the attribution's queue); no lock.
final class ProcessSocketIndex {
    /// A network namespace as `stat` tells it apart.
    struct Namespace: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    private let procRoot: String
    private let namespace: Namespace?
    /// Processes known to be in the namespace, the latest to hold a wanted socket first.
    private var members: [Int32] = []
    /// Every pid classified so far (members and not), to tell new processes apart.
    private var classified: Set<Int32> = []
    /// The open /proc directories of the latest holders (at most `recentMembers` between lookups).
    private var directories: [Int32: ProcessDirectory] = [:]
    /// Users' names by uid, as the user database gave them (nil: it has none), asked once each.
    private var userNames: [UInt32: String?] = [:]
    /// Searches that had to list /proc, for the benchmark and tests.
    private(set) var scans = 0

    /// `namespace`: only processes in it are searched; nil searches every process.
    init(procRoot: String = "/proc", namespace: Namespace? = nil) {
        self.procRoot = procRoot
        self.namespace = namespace
    }

    /// The process holding socket `inode` now, or nil when none does.
    func holder(of inode: UInt32) -> Int32? {
        defer { closeDirectories(beyond: Self.recentMembers) }
        if let found = member(holding: inode, among: members.prefix(Self.recentMembers)) { return found }
        scans += 1
        let listed = Self.pids(in: procRoot)
        let alive = Set(listed)
        // A held directory of a process that is gone names no process, even when its pid is back.
        members.removeAll { !alive.contains($0) || directories[$0]?.isGone == true }
        directories = directories.filter { alive.contains($0.key) && !$0.value.isGone }
        classified.formIntersection(alive)
        if let found = search(listed.filter { !classified.contains($0) }, for: inode) { return found }
        if let found = member(holding: inode, among: members.dropFirst(Self.recentMembers)) { return found }
        // A pid classified long ago may have been reused by a process of the namespace.
        classified = Set(members)
        return search(listed.filter { !classified.contains($0) }, for: inode)
    }

    /// The process holding socket `inode` if it is one of the latest holders and holds it on or
    /// just past the descriptor it last held a wanted socket on; nil otherwise, with /proc never
    /// listed: a few `readlinkat` at most, cheap enough for the loop's thread (`ProgramLookupFront`).
    func quickHolder(of inode: UInt32) -> Int32? {
        defer { closeDirectories(beyond: Self.recentMembers) }
        guard let pid = members.prefix(Self.recentMembers).first(where: { directory(of: $0)?.holdsNearLastDescriptor(inode) ?? false })
        else { return nil }
        members.removeAll { $0 == pid }
        members.insert(pid, at: 0)
        return pid
    }

    /// Where process `pid` holds its latest wanted socket, when it holds one.
    func heldDescriptor(of pid: Int32) -> Int32? { directories[pid]?.socketDescriptor }

    /// Makes process `pid` — found holding a socket on `descriptor` by another index — the latest
    /// holder, so that `quickHolder` looks there first.
    func remember(_ pid: Int32, descriptor: Int32?) {
        classified.insert(pid)
        members.removeAll { $0 == pid }
        members.insert(pid, at: 0)
        directory(of: pid)?.socketDescriptor = descriptor
        closeDirectories(beyond: Self.recentMembers)
    }

    /// How many of the latest holders are looked at before /proc is listed.
    static let recentMembers = 4

    /// The member among `candidates` holding `inode`, moved to the front.
    private func member(holding inode: UInt32, among candidates: ArraySlice<Int32>) -> Int32? {
        guard let pid = candidates.first(where: { holds($0, inode) }) else { return nil }
        members.removeAll { $0 == pid }
        members.insert(pid, at: 0)
        return pid
    }

    /// The facts of process `pid` now, with `uid` the socket's owner; nil when it has exited.
    func facts(of pid: Int32, uid: UInt32) -> ProgramFacts? {
        guard let process = directory(of: pid), let command = process.commandName() else { return nil }
        let user: String?
        if let known = userNames[uid] { user = known } else {
            user = Self.userName(uid)
            userNames[uid] = user
        }
        return ProgramFacts(pid: pid, command: command, executable: process.executable(), uid: uid, user: user)
    }

    /// The inode a /proc/PID/fd link names when it is a socket (`socket:[12345]`), else nil. Pure.
    static func socketInode(fromLink target: String) -> UInt32? {
        Array(target.utf8).withUnsafeBytes { socketInode(fromLink: $0) }
    }

    static func socketInode(fromLink target: UnsafeRawBufferPointer) -> UInt32? {
        let prefix = "socket:[".utf8
        guard target.count > prefix.count + 1, target.starts(with: prefix), target.last == UInt8(ascii: "]") else { return nil }
        var value: UInt64 = 0
        for byte in target[prefix.count..<(target.count - 1)] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + UInt64(byte - 0x30)
            guard value <= UInt32.max else { return nil }
        }
        return UInt32(value)
    }

    /// Process `pid`'s /proc directory, opened on first use; nil when it is gone.
    private func directory(of pid: Int32) -> ProcessDirectory? {
        if let open = directories[pid] { return open }
        guard let opened = ProcessDirectory(procRoot: procRoot, pid: pid) else { return nil }
        directories[pid] = opened
        return opened
    }

    /// Closes the directories of every process but the `count` latest holders.
    private func closeDirectories(beyond count: Int) {
        guard directories.count > count else { return }
        let kept = Set(members.prefix(count))
        directories = directories.filter { kept.contains($0.key) }
    }

    /// Classifies `candidates` (newest first), and looks for `inode` in those of the namespace.
    private func search(_ candidates: [Int32], for inode: UInt32) -> Int32? {
        for pid in candidates.sorted(by: >) {
            classified.insert(pid)
            if let namespace, Self.namespace(of: pid, procRoot: procRoot) != namespace { continue }
            members.append(pid)
            if holds(pid, inode) {
                members.insert(members.removeLast(), at: 0)
                return pid
            }
        }
        return nil
    }

    /// Whether `pid` has a descriptor on socket `inode` (`ProcessDirectory.holds`).
    private func holds(_ pid: Int32, _ inode: UInt32) -> Bool {
        directory(of: pid)?.holds(inode) ?? false
    }

    /// The pids /proc lists now.
    static func pids(in procRoot: String) -> [Int32] { numberedEntries(of: procRoot).filter { $0 > 0 } }

    /// The names of `directory` that are numbers (pids, descriptors), read with readdir: no
    /// object per entry, as FileManager makes.
    static func numberedEntries(of directory: String) -> [Int32] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        return numberedEntries(of: stream)
    }

    /// The numbered names `stream` lists from where it stands.
    static func numberedEntries(of stream: OpaquePointer) -> [Int32] {
        var numbers: [Int32] = []
        while let entry = readdir(stream) {
            let number = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                var value: Int32 = 0
                var digits = 0
                for byte in name {
                    if byte == 0 { break }
                    guard byte >= 0x30, byte <= 0x39, value < Int32.max / 10 - 9 else { return nil }
                    value = value * 10 + Int32(byte - 0x30)
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            if let number { numbers.append(number) }
        }
        return numbers
    }

    /// The network namespace process `pid` is in, as `stat` of its /proc link tells it.
    static func namespace(of pid: Int32, procRoot: String) -> Namespace? {
        var status = stat()
        guard stat("\(procRoot)/\(pid)/ns/net", &status) == 0 else { return nil }
        return Namespace(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
