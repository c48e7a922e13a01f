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
///
/// With segmentation offload (the default), every datagram read or written carries a
/// `VirtioNetHeader` and the kernel hands over TCP segments of up to 64 KiB whatever the MTU,
/// their checksums left partial, as it does to a virtio NIC: one read and one pass through the
/// pipeline and the relay for what would be 44 datagrams at MTU 1500 (pasta and gVisor do the
/// same). A kernel that refuses the offloads gets a plain device.
///
/// `@unchecked Sendable`: while a runtime runs, only its loop thread reads, writes and asks
/// `kernelCounters` (which sets `statistics`); the owner calls `close` (which sets `descriptor`)
/// only after the runtime stopped.
package final class TUNDevice: @unchecked Sendable {
    package let name: String
    package private(set) var descriptor: Int32
    /// Whether datagrams carry the vnet header and segments may exceed the MTU.
    package let segmentationOffload: Bool

    /// Creates an interface in the caller's network namespace. `name` may be a pattern with `%d`
    /// for the kernel to number (default "tv%d").
    package init(name: String = "tv%d", segmentationOffload: Bool = true) throws(TUNError) {
        if segmentationOffload {
            let offloaded = try Self.open(name: name, vnetHeader: true)
            if ctv_tun_set_segmentation_offloads(offloaded.descriptor) == 0 {
                (self.name, descriptor, self.segmentationOffload) = (offloaded.name, offloaded.descriptor, true)
                return
            }
            Glibc.close(offloaded.descriptor)
        }
        let plain = try Self.open(name: name, vnetHeader: false)
        (self.name, descriptor, self.segmentationOffload) = (plain.name, plain.descriptor, false)
    }

    /// An open descriptor attached to an interface named after `name`.
    private static func open(name: String, vnetHeader: Bool) throws(TUNError) -> (name: String, descriptor: Int32) {
        let descriptor = Glibc.open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ENOENT ? .deviceMissing : .openFailed(errno: failure)
        }
        var actual = [CChar](repeating: 0, count: 16)
        let failure = vnetHeader ? ctv_tun_attach_with_vnet_header(descriptor, name, &actual)
                                 : ctv_tun_attach(descriptor, name, &actual)
        guard failure == 0 else {
            Glibc.close(descriptor)
            throw failure == EPERM ? .permissionDenied : .attachFailed(name: name, errno: failure)
        }
        return (actual.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, descriptor)
    }

    /// Reads one datagram to the start of `buffer` (its vnet header, when the device carries one,
    /// read and dropped): the count is the datagram's.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        let result = readWithHeader(into: buffer)
        guard segmentationOffload, case .processed(let count) = result, let base = buffer.baseAddress else { return result }
        let length = max(0, count - VirtioNetHeader.byteCount)
        memmove(base, base + VirtioNetHeader.byteCount, length)
        return .processed(length)
    }

    /// One read(2): the vnet header first when the device carries one.
    private func readWithHeader(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        IOResult.retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Writes one datagram, after `header` when the device carries the vnet header. A datagram is
    /// written whole or not at all.
    package func write(_ packet: UnsafeRawBufferPointer, header: VirtioNetHeader = .plain) -> IOResult {
        guard segmentationOffload else {
            precondition(header == .plain, "a device without the vnet header has nothing to finish")
            return IOResult.retryingInterrupts { Glibc.write(descriptor, packet.baseAddress, packet.count) }
        }
        // The header and the datagram in one writev, from the stack: nothing allocated per write.
        var bytes = (UInt64(0), UInt16(0))
        return withUnsafeMutableBytes(of: &bytes) { raw in
            let prefix = UnsafeMutableRawBufferPointer(rebasing: raw[..<VirtioNetHeader.byteCount])
            header.store(to: prefix)
            var parts = (iovec(iov_base: prefix.baseAddress, iov_len: prefix.count),
                         iovec(iov_base: UnsafeMutableRawPointer(mutating: packet.baseAddress), iov_len: packet.count))
            let written = withUnsafeMutableBytes(of: &parts) { vector in
                IOResult.retryingInterrupts { Glibc.writev(descriptor, vector.baseAddress!.assumingMemoryBound(to: iovec.self), 2) }
            }
            // The header is the device's, not the caller's: what was written is the datagram.
            if case .processed(let count) = written { return .processed(max(0, count - VirtioNetHeader.byteCount)) }
            return written
        }
    }

    /// Closes the descriptor, which removes the interface.
    package func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        statistics = nil
    }

    /// The netlink socket that answers for the namespace the device was last found in.
    private var statistics: LinkStatisticsSocket?

    /// A descriptor of the network namespace the device lives in now (the caller closes it), or
    /// the errno.
    func networkNamespace() -> Result<Int32, LinkStatisticsError> {
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
    /// One read(2) per datagram: a TUN has no call that reads several. The vnet header, when the
    /// device carries one, stays in the batch's arena before its datagram.
    package func read(into batch: PacketBatch) -> IOResult {
        batch.removeAll()
        let header = segmentationOffload ? VirtioNetHeader.byteCount : 0
        while let space = batch.freeSpace {
            switch readWithHeader(into: space) {
            case .processed(let count) where count > header: batch.append(length: count - header, after: header)
            case .processed(let count) where count > 0: continue   // a header and no datagram: nothing to hand on
            case .processed, .wouldBlock: return batch.isEmpty ? .wouldBlock : .processed(batch.count)
            case .failed(let failure): return batch.isEmpty ? .failed(failure) : .processed(batch.count)
            }
        }
        return .processed(batch.count)
    }

    package func write(_ datagram: UnsafeRawBufferPointer, header: VirtioNetHeader) -> PacketWriteResult {
        let result = write(datagram, header: header) as IOResult
        guard case .processed = result else { return PacketWriteResult(written: 0, refusal: result) }
        return PacketWriteResult(written: 1)
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
package enum TUNError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No /dev/net/tun: load the module (`modprobe tun`) or, in a container, pass the device in.
    case deviceMissing
    /// Creating interfaces needs root or CAP_NET_ADMIN.
    case permissionDenied
    case openFailed(errno: Int32)
    case attachFailed(name: String, errno: Int32)

    package var description: String {
        switch self {
        case .deviceMissing: "/dev/net/tun does not exist (modprobe tun, or give the container the device)"
        case .permissionDenied: "creating a TUN interface needs root or CAP_NET_ADMIN"
        case .openFailed(let code): "cannot open /dev/net/tun: \(SystemError.text(code))"
        case .attachFailed(let name, let code): "cannot create TUN interface \(name): \(SystemError.text(code))"
        }
    }
}
