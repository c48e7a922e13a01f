#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a monitoring service (`tunnelvision up`) says about itself, in `<data-dir>/service.json`,
/// replaced whole at each change. It is the service's word, not proof that it lives: that is the
/// lock (`ServiceLock`), which a killed service lets go of at once while its record stays behind
/// to say what it was doing.
package struct ServiceRecord: Codable, Sendable, Equatable {
    package enum Phase: String, Codable, Sendable, CaseIterable {
        /// Setting up: the device, the rules, the session.
        case starting
        /// Traffic goes through the tunnel.
        case live
        /// Told to stop: taking its rules away and closing the session.
        case stopping
        /// Could not start, or stopped by itself; `problem` says why.
        case failed
    }

    package var pid: Int32
    package var target: MonitoringTarget
    package var inspect: Bool
    package var phase: Phase
    package var startedAt: Date
    /// The TUN device carrying the target's routes, once there is one.
    package var device: String?
    /// Why the service failed, in its own words.
    package var problem: String?
    /// Changes to the target's network (its uplink, addresses, default routes) the service saw
    /// while it ran, and those it followed; nil until the first, and in records older than them.
    package var networkChanges: UInt64?
    package var networkChangesLearned: UInt64?
    /// What the last change came to, in the service's words.
    package var lastNetworkChange: String?

    package init(pid: Int32, target: MonitoringTarget, inspect: Bool, phase: Phase, startedAt: Date,
                device: String? = nil, problem: String? = nil) {
        self.pid = pid
        self.target = target
        self.inspect = inspect
        self.phase = phase
        self.startedAt = startedAt
        self.device = device
        self.problem = problem
    }

    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Nothing in a record fails to encode (no floating point).
        return (try? encoder.encode(self)) ?? Data()
    }

    package static func decoded(_ data: Data) throws(ServiceRecordError) -> ServiceRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(ServiceRecord.self, from: data)
        } catch {
            throw .malformed(JSONText.reason(error))
        }
    }
}

/// The record could not be read or written; never taken for "no service".
package enum ServiceRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, errno: Int32)
    case symbolicLink(path: String)
    case malformed(String)
    case unwritable(AtomicFileError)

    package var description: String {
        switch self {
        case let .unreadable(path, code): "cannot read \(path): \(SystemError.text(code))"
        case let .symbolicLink(path): "\(path) is a symbolic link; it is not followed"
        case let .malformed(reason): "the service record is not one this build wrote: \(reason)"
        case let .unwritable(error): "\(error)"
        }
    }

    /// Whether the system refused for want of rights (the data directory is another user's).
    package var isPermissionDenied: Bool {
        if case let .unreadable(_, code) = self { return code == EACCES || code == EPERM }
        return false
    }
}

/// Reading and writing `service.json` in a data directory: replaced atomically (0600), read
/// without following a link, and a missing file is "no record", never an error.
package enum ServiceRecordFile {
    /// Far above any record (a few hundred bytes), far below what could hurt to read.
    static let largestRecord = 64 << 10

    package static func read(in dataDirectory: URL) throws(ServiceRecordError) -> ServiceRecord? {
        let path = DataDirectoryLayout.serviceRecord(in: dataDirectory).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT { return nil }
            throw failure == ELOOP ? .symbolicLink(path: path) : .unreadable(path: path, errno: failure)
        }
        defer { close(descriptor) }
        // A record is a few hundred bytes: anything else in its place is reported, never read whole.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .malformed("\(path) is not a regular file") }
        guard status.st_size <= largestRecord else {
            throw .malformed("\(path) is \(status.st_size) bytes, far more than a service record")
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .unreadable(path: path, errno: errno) }
            if count == 0 { break }
            data.append(contentsOf: chunk[..<count])
        }
        return try ServiceRecord.decoded(data)
    }

    package static func write(_ record: ServiceRecord, in dataDirectory: URL) throws(ServiceRecordError) {
        do {
            try AtomicFile.replace(DataDirectoryLayout.serviceRecord(in: dataDirectory), with: record.encoded())
        } catch {
            // Renamed into place but not synced: the record is the new one all the same.
            if !error.replaced { throw .unwritable(error) }
        }
    }

    /// Removes the record (a clean stop leaves none); a missing one is fine.
    package static func remove(in dataDirectory: URL) {
        unlink(DataDirectoryLayout.serviceRecord(in: dataDirectory).path)
    }
}
