#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Which process holds a socket, from /proc: every /proc/PID/fd/N that links to `socket:[INODE]`.
/// Read again only when asked for an inode it has not seen (a socket opened since); one process
/// found for an inode is enough — a socket shared across a fork is the parent's as much as the
/// child's, and the first found is kept.
///
/// One owner at a time (the attribution's thread); no lock.
final class ProcessSocketIndex {
    private let procRoot: String
    private var holders: [UInt32: Int32] = [:]
    /// Scans of /proc so far, for the benchmark and tests.
    private(set) var scans = 0

    init(procRoot: String = "/proc") {
        self.procRoot = procRoot
    }

    /// The process holding socket `inode`, scanning /proc again when it is not known yet — or
    /// when the one known has let it go (the inode is reused only after the socket is freed).
    func holder(of inode: UInt32) -> Int32? {
        if let known = holders[inode], Self.holds(known, inode, procRoot: procRoot) { return known }
        rescan()
        return holders[inode]
    }

    /// The facts of process `pid` now, with `uid` the socket's owner; nil when it has exited.
    func facts(of pid: Int32, uid: UInt32) -> ProgramFacts? {
        let base = "\(procRoot)/\(pid)"
        guard let comm = try? String(contentsOfFile: base + "/comm", encoding: .utf8) else { return nil }
        let command = comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
        return ProgramFacts(pid: pid, command: command, executable: Self.link(base + "/exe"), uid: uid, user: Self.userName(uid))
    }

    /// The inode a /proc/PID/fd link names when it is a socket (`socket:[12345]`), else nil. Pure.
    static func socketInode(fromLink target: String) -> UInt32? {
        guard target.hasPrefix("socket:["), target.hasSuffix("]") else { return nil }
        return UInt32(target.dropFirst("socket:[".count).dropLast())
    }

    private func rescan() {
        scans += 1
        holders.removeAll(keepingCapacity: true)
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: procRoot) else { return }
        for name in processes {
            guard let pid = Int32(name), pid > 0 else { continue }
            let directory = "\(procRoot)/\(name)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for descriptor in descriptors {
                guard let target = Self.link(directory + "/" + descriptor), let inode = Self.socketInode(fromLink: target) else { continue }
                if holders[inode] == nil { holders[inode] = pid }
            }
        }
    }

    private static func holds(_ pid: Int32, _ inode: UInt32, procRoot: String) -> Bool {
        let directory = "\(procRoot)/\(pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return descriptors.contains { link(directory + "/" + $0).flatMap(socketInode(fromLink:)) == inode }
    }

    /// A link's target, without following it; nil when it is no link or cannot be read.
    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
