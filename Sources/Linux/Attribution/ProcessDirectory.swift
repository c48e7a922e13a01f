#if canImport(Glibc)
import Glibc
#endif

/// One process's /proc directory and its `fd` directory, held open while the process is among the
/// latest to hold a wanted socket: each look is then one `readlinkat` or `openat` relative to them,
/// not a walk of "/proc/PID/fd/N" from the root (the walk, and listing every descriptor, were most
/// of the cost of naming a connection). A descriptor of /proc/PID keeps naming the process it was
/// opened on: once that process is gone every look through it fails, even if its pid is reused.
///
/// One owner (the attribution's queue); no lock.
final class ProcessDirectory {
    let pid: Int32
    private let directory: Int32
    private let descriptors: OpaquePointer
    /// The descriptor the process last held a wanted socket on: a program that closes a
    /// connection and opens the next gets the same number back (the lowest free one).
    private var lastSocketDescriptor: Int32?
    /// /proc/PID/comm, opened on first use and read again from its start each time (the kernel
    /// makes it anew on each read at offset 0, so a later exec's name is read): -1 until then.
    private var command: Int32 = -1

    /// Opens `procRoot`/`pid`; nil when the process is gone or cannot be read.
    init?(procRoot: String, pid: Int32) {
        let directory = open("\(procRoot)/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        let listing = openat(directory, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let stream = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            close(directory)
            return nil
        }
        self.pid = pid
        self.directory = directory
        descriptors = stream
    }

    deinit {
        if command >= 0 { close(command) }
        closedir(descriptors)
        close(directory)
    }

    /// Whether the process has a descriptor on socket `inode`: the one it last held a wanted
    /// socket on and the next two first, then every descriptor, highest first.
    func holds(_ inode: UInt32) -> Bool {
        if holdsNearLastDescriptor(inode) { return true }
        rewinddir(descriptors)
        for descriptor in ProcessSocketIndex.numberedEntries(of: descriptors).sorted(by: >)
        where socketInode(at: descriptor) == inode {
            lastSocketDescriptor = descriptor
            return true
        }
        return false
    }

    /// Whether socket `inode` is on the descriptor the process last held a wanted socket on or
    /// one of the next two: at most three `readlinkat`, whatever the process holds.
    func holdsNearLastDescriptor(_ inode: UInt32) -> Bool {
        guard let last = lastSocketDescriptor else { return false }
        for descriptor in last...(last + 2) where socketInode(at: descriptor) == inode {
            lastSocketDescriptor = descriptor
            return true
        }
        return false
    }

    /// The descriptor the process last held a wanted socket on, as another index found it.
    var socketDescriptor: Int32? {
        get { lastSocketDescriptor }
        set { if let newValue { lastSocketDescriptor = newValue } }
    }

    /// The inode of the socket at `descriptor`, nil when it is no socket or not open.
    private func socketInode(at descriptor: Int32) -> UInt32? {
        // "socket:[4294967295]" is 19 bytes: a longer link is something else.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer -> UInt32? in
            let count = readlinkat(dirfd(descriptors), String(descriptor), buffer.baseAddress!, buffer.count)
            guard count > 0, count < buffer.count else { return nil }
            return ProcessSocketIndex.socketInode(fromLink: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }

    /// Whether the process is gone (its directory answers nothing more).
    var isGone: Bool { faccessat(directory, "fd", F_OK, 0) != 0 }

    /// /proc/PID/comm without its newline, read with one pread(2) (it is at most 16 bytes); nil
    /// once the process is gone.
    func commandName() -> String? {
        if command < 0 { command = openat(directory, "comm", O_RDONLY | O_CLOEXEC) }
        guard command >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer -> String? in
            let count = pread(command, buffer.baseAddress!, buffer.count, 0)
            guard count > 0 else { return nil }
            let end = buffer[count - 1] == UInt8(ascii: "\n") ? count - 1 : count
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<end]), as: UTF8.self)
        }
    }

    /// Where /proc/PID/exe points; nil when the kernel will not say (a kernel thread, no rights).
    func executable() -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer -> String? in
            let count = readlinkat(directory, "exe", buffer.baseAddress!, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
        }
    }
}
