#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Posix
import Shared

/// A layer-3 TUN interface: one descriptor that reads and writes whole IP datagrams (no
/// packet-information prefix). The interface lives exactly as long as the descriptor is open, so
/// closing it — or the process dying — removes it, wherever its namespace.
///
/// Non-blocking: reads and writes answer `.wouldBlock` rather than stall the event loop.
public final class TUNDevice: @unchecked Sendable {
    public let name: String
    public private(set) var descriptor: Int32

    /// Creates an interface in the caller's network namespace. `name` may be a pattern with `%d`
    /// for the kernel to number (default "tv%d").
    public init(name: String = "tv%d") throws(TUNError) {
        let descriptor = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ENOENT ? .deviceMissing : .openFailed(errno: failure)
        }
        var actual = [CChar](repeating: 0, count: 16)
        let failure = ctv_tun_attach(descriptor, name, &actual)
        guard failure == 0 else {
            Glibc.close(descriptor)
            throw failure == EPERM ? .permissionDenied : .attachFailed(name: name, errno: failure)
        }
        self.name = actual.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.descriptor = descriptor
    }

    /// Reads one datagram into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        IOResult.retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Writes one datagram. A datagram is written whole or not at all.
    public func write(_ packet: UnsafeRawBufferPointer) -> IOResult {
        IOResult.retryingInterrupts { Glibc.write(descriptor, packet.baseAddress, packet.count) }
    }

    /// Closes the descriptor, which removes the interface.
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        statistics = nil
    }

    /// The netlink socket that answers for the namespace the device was last found in.
    private var statistics: LinkStatisticsSocket?

    /// A descriptor of the network namespace the device lives in now (the caller closes it), or
    /// the errno.
    package func networkNamespace() -> Result<Int32, LinkStatisticsError> {
        guard descriptor >= 0 else { return .failure(.closed) }
        let namespace = ctv_tun_device_namespace(descriptor)
        return namespace >= 0 ? .success(namespace) : .failure(.namespace(errno: -namespace))
    }

    /// What the kernel counted on this device, asked in the namespace it lives in now (the
    /// device is moved into the monitored namespace after it is made); its socket is made once
    /// per namespace and kept. A few system calls: for when the stats are asked, never per packet.
    /// Never nil: a TUN is always the kernel's (optional only as `PacketDevice` asks it).
    package func kernelCounters() -> Result<DeviceKernelCounters, LinkStatisticsError>? {
        guard descriptor >= 0 else { return .failure(.closed) }
        let namespace = ctv_tun_device_namespace(descriptor)
        guard namespace >= 0 else { return .failure(.namespace(errno: -namespace)) }
        defer { Glibc.close(namespace) }
        do throws(LinkStatisticsError) {
            if statistics == nil || statistics?.namespace != LinkStatisticsSocket.NamespaceIdentity(descriptor: namespace) {
                statistics = try LinkStatisticsSocket(namespaceDescriptor: namespace)
            }
            return .success(try statistics!.counters(of: name))
        } catch {
            return .failure(error)
        }
    }

    deinit { close() }
}

extension TUNDevice: PacketDevice {
    /// One read(2) per datagram: a TUN without offloads has no call that reads several.
    package func read(into batch: PacketBatch) -> IOResult {
        batch.removeAll()
        while let space = batch.freeSpace {
            switch read(into: space) {
            case .processed(let count) where count > 0: batch.append(length: count)
            case .processed, .wouldBlock: return batch.isEmpty ? .wouldBlock : .processed(batch.count)
            case .failed(let failure): return batch.isEmpty ? .failed(failure) : .processed(batch.count)
            }
        }
        return .processed(batch.count)
    }

    package func write(_ datagrams: some Collection<UnsafeRawBufferPointer>) -> PacketWriteResult {
        var written = 0
        for datagram in datagrams {
            let result = write(datagram)
            guard case .processed = result else { return PacketWriteResult(written: written, refusal: result) }
            written += 1
        }
        return PacketWriteResult(written: written)
    }
}

/// Why a TUN device could not be made; each says what a person can do.
public enum TUNError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No /dev/net/tun: load the module (`modprobe tun`) or, in a container, pass the device in.
    case deviceMissing
    /// Creating interfaces needs root or CAP_NET_ADMIN.
    case permissionDenied
    case openFailed(errno: Int32)
    case attachFailed(name: String, errno: Int32)

    public var description: String {
        switch self {
        case .deviceMissing: "/dev/net/tun does not exist (modprobe tun, or give the container the device)"
        case .permissionDenied: "creating a TUN interface needs root or CAP_NET_ADMIN"
        case .openFailed(let code): "cannot open /dev/net/tun: \(SystemError.text(code))"
        case .attachFailed(let name, let code): "cannot create TUN interface \(name): \(SystemError.text(code))"
        }
    }
}
