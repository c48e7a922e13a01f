#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// One ring file mapped `MAP_SHARED`: the only code that opens, sizes, maps and unmaps it.
/// Owned by a single producer or consumer; unmapped and closed explicitly.
final class RingMapping {
    let path: String
    let geometry: RingGeometry
    private(set) var descriptor: Int32
    let base: UnsafeMutableRawPointer
    /// The file's identity, so a consumer can tell whether the path still names it.
    let device: UInt64
    let inode: UInt64

    private init(path: String, geometry: RingGeometry, descriptor: Int32, base: UnsafeMutableRawPointer, status: stat) {
        self.path = path
        self.geometry = geometry
        self.descriptor = descriptor
        self.base = base
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    var header: UnsafeMutableRawPointer { base }
    var slots: UnsafeMutableRawPointer { base + RingGeometry.headerByteCount }
    var generation: UInt64 { ctv_ring_load_generation(base) }
    var state: RingFileState { RingFileState(rawValue: ctv_ring_load_state_acquire(base)) ?? .live }

    /// Creates a fresh, fully initialised ring at `path` (a new file, mode 0600) for `generation`.
    /// Every byte is allocated before the file is mapped: a store into a page the file system
    /// cannot back is SIGBUS, so a full disk must be met here, as an error, not mid-session.
    static func create(path: String, geometry: RingGeometry, generation: UInt64) throws(IPCError) -> RingMapping {
        // O_EXCL already refuses any existing name, a symbolic link included; O_NOFOLLOW says so.
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .openFailed(path: path, errno: errno) }
        let reserved = posix_fallocate(descriptor, 0, off_t(geometry.fileByteCount))
        guard reserved == 0 else {
            Glibc.close(descriptor)
            unlink(path)
            throw .cannotReserve(directory: (path as NSString).deletingLastPathComponent,
                                 bytes: geometry.fileByteCount, errno: reserved)
        }
        let mapping: RingMapping
        do {
            mapping = try map(path: path, descriptor: descriptor, geometry: geometry)
        } catch {
            unlink(path)
            throw error
        }
        ctv_ring_store_generation(mapping.base, generation)
        geometry.writeHeader(to: mapping.base)
        return mapping
    }

    /// Maps an existing ring and validates its header (the consumer's open). Never follows a
    /// symbolic link, and never waits on a FIFO planted at the path: only a regular file is mapped.
    static func open(path: String) throws(IPCError) -> RingMapping {
        let descriptor = Glibc.open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ELOOP ? .symbolicLink(path: path) : .openFailed(path: path, errno: failure)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw .openFailed(path: path, errno: failure)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw .badHeader(path: path, reason: "it is not a regular file")
        }
        let size = Int(status.st_size)
        var prefix = [UInt8](repeating: 0, count: RingGeometry.headerByteCount)
        if size >= prefix.count, pread(descriptor, &prefix, prefix.count, 0) != prefix.count {
            let failure = errno
            Glibc.close(descriptor)
            throw .openFailed(path: path, errno: failure == 0 ? EIO : failure)
        }
        switch prefix.withUnsafeBytes({ RingGeometry.read(header: $0.baseAddress!, fileByteCount: size) }) {
        case .failure(let problem):
            Glibc.close(descriptor)
            throw .badHeader(path: path, reason: problem.description)
        case .success(let geometry):
            return try map(path: path, descriptor: descriptor, geometry: geometry)
        }
    }

    private static func map(path: String, descriptor: Int32, geometry: RingGeometry) throws(IPCError) -> RingMapping {
        var status = stat()
        fstat(descriptor, &status)
        let address = mmap(nil, geometry.fileByteCount, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            let failure = errno
            Glibc.close(descriptor)
            throw .mapFailed(path: path, errno: failure)
        }
        return RingMapping(path: path, geometry: geometry, descriptor: descriptor, base: address, status: status)
    }

    /// Whether `path` still names this very file (not a newer one renamed over it).
    func pathStillNamesThisFile() -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    func unmap() {
        guard descriptor >= 0 else { return }
        munmap(base, geometry.fileByteCount)
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { unmap() }
}
