#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation
import PacketTunnel
import Posix
import Shared

/// The running tunnel: one event-loop thread owns the TUN device, the pipeline, the relay and its
/// sockets (tunnel-provider spec, "Read/write loop", with the isolation DESIGN.md and the fast
/// relays use: no actor hop per packet). It reads the device in batches, records each datagram,
/// hands what is not dropped to the relay, writes the relay's answers back to the device and
/// records them too, and ticks once a second to expire flows and close their connections.
///
/// A failure of its shell never goes silent: what the device and the sockets refuse is counted
/// (`shellStats`), and a failure that ends the loop — epoll_wait failing, the TUN device gone or
/// failing persistently (`DeviceHealth`) — closes the relay, stops the loop and is kept as
/// `failure`, and the owner hears it once through `onFailure`.
///
/// Generic over its device — a TUN in the product, an in-memory device in tests — so each read
/// and write is a direct call, not one dispatched per packet.
///
/// `@unchecked Sendable`: `relay`, `control`, `programs` and `recording` are set before `start`;
/// from then on they, `deviceHealth`, `device` and `pipeline` are touched only on the loop thread
/// (others go through `loop.execute` or `onLoop`) until the loop has ended.
package final class TunnelRuntime<Device: PacketDevice>: @unchecked Sendable {
    /// Datagrams read per readiness before the loop serves the sockets again.
    static var readBatch: Int { 64 }
    /// The read batch's memory, at most (see `PacketBatch`): 64 datagrams of a 1500-byte MTU, or a
    /// few of the tunnel's 64 KiB one.
    static var readBatchBytes: Int { 256 * 1024 }
    static var tickInterval: Duration { .seconds(1) }
    /// How long the loop polls after traffic before sleeping (see `EventLoop.busyPoll`).
    static var busyPoll: Duration { .microseconds(50) }

    let device: Device
    let loop: EventLoop
    /// Touched on the loop thread only (`onLoop`).
    package let pipeline: PacketPipeline
    let connector: SocketRelayConnector
    /// Made in `init` once every other property is set, since its output writes through `self`.
    private(set) lazy var relay = Relay(connector: connector, config: relayConfig) { [unowned self] datagram, offload in
        self.deliver(datagram, header: offload.map(VirtioNetHeader.init) ?? .plain)
    }
    private let relayConfig: TCPRelayFlow.Config
    private let batch: PacketBatch
    private var thread: Thread?
    /// The loop thread's end, and the failure that ended it.
    private let lifetime = LoopLifetime()
    private var control: ControlServer?
    /// Asks which program opened each flow (`attributePrograms`); nil when not asked for.
    private var programs: ProgramLookupFront?
    /// The device's answers, counted and judged (loop thread).
    private var deviceHealth = DeviceHealth()
    /// The recording commands, and the retention pass after each rotation (loop thread).
    private var recording: RecordingControl?

    /// `socketMark`: what every relay socket carries (SO_MARK), so a routed target's rules send
    /// the relay by the target's own routes rather than back into the tunnel.
    package init(device: Device, pipeline: PacketPipeline, mtu: Int = TunnelAddressing.mtu,
                 socketMark: UInt32? = nil) throws(EventLoopError) {
        self.device = device
        self.pipeline = pipeline
        loop = try EventLoop(busyPoll: Self.busyPoll)
        connector = SocketRelayConnector(loop: loop, mark: socketMark)
        // A segment the kernel did not cut is up to 64 KiB, its vnet header before it.
        let datagramLimit = device.segmentationOffload ? Int(UInt16.max) + 1 + 64 : max(mtu, 1500) + 64
        let slots = min(Self.readBatch, max(4, Self.readBatchBytes / datagramLimit))
        batch = PacketBatch(capacity: Self.readBatch, datagramLimit: datagramLimit, arenaBytes: slots * datagramLimit)
        // The MSS announced to the device fills the tunnel's MTU (IPv4 headers; an IPv6 device
        // announces its own smaller MSS, and the smaller of the two is used).
        var relayConfig = TCPRelayFlow.Config(maximumSegmentSize: TCPRelayFlow.Config.segmentSize(mtu: mtu, version: .v4))
        relayConfig.segmentationOffload = device.segmentationOffload
        self.relayConfig = relayConfig
        connector.relay = relay
        relay.observer = { [unowned self] key, facts in self.pipeline.observe(facts, for: key) }
    }

    /// Serves the control channel at `path` (call before `start`): `stats`, `rotateCapture`,
    /// `setCaptureEnabled` and `setCaptureDetail`, answered on the loop thread. `capture` is the
    /// writer the pipeline records into, rotated in place; `retention` sweeps after each rotation
    /// (the tick notices the writer's own, at its size threshold).
    func serveControl(at path: String, capture: PcapFileWriter?, resolvers: (@Sendable () -> ResolverStatus)?,
                              retention: RetentionSweeper? = nil) throws(ControlSocketError) {
        let recording = RecordingControl(pipeline: pipeline, capture: capture, retention: retention)
        self.recording = recording
        control = try ControlServer(path: path, loop: loop) { [unowned self] command in
            switch command {
            case .stats:
                var relayStats = relay.stats
                // The relay sees the factory through the TLSSessionFactory seam; the count is the
                // OpenSSL factory's, which mints and parses each host's leaf once.
                if let factory = relay.inspection?.factory as? OpenSSLSessionFactory {
                    relayStats.inspection?.leavesMinted = UInt64(factory.leavesMinted)
                }
                return .stats(TunnelStats(pipeline: recording.pipelineStats, relay: relayStats, resolvers: resolvers?(),
                                          shell: shellStats))
            case .setTLSInspectionEnabled(let enabled):
                return setInspectionEnabled(enabled)
            case .setPlaintextPersistenceEnabled(let enabled):
                return setPlaintextPersistence(enabled)
            case .setCaptureEnabled, .rotateCapture, .setCaptureDetail:
                return recording.answer(command)
            }
        }
    }

    /// Starts the loop on its own thread. With `relayNamespace` (a name under /var/run/netns, or
    /// an absolute path to a namespace file such as /proc/PID/fd/N) the loop thread joins that
    /// network namespace first, so the relay's sockets live there —
    /// how the lab runs a tunnel as if in its "host" namespace without moving the whole process.
    ///
    /// `onFailure` is called once, on the loop thread just before it ends, when the tunnel stops
    /// by itself (not after `stop`): the owner ends what depends on the tunnel and reports why.
    package func start(relayNamespace: String? = nil,
                       onFailure: (@Sendable (TunnelFailure) -> Void)? = nil) throws(TunnelRuntimeError) {
        do {
            try loop.register(device.descriptor, interest: .read) { [unowned self] readiness in self.readDevice(readiness) }
        } catch {
            throw .loop(error)
        }
        scheduleTick()
        HeapPolicy.giveBackPeriodically(on: loop) { [weak self] in
            self?.pipeline.releaseUnusedCapacity()
            self?.relay.releaseUnusedCapacity()
        }
        let joined = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var joinFailure: Int32 = 0
        let thread = Thread { [self] in
            if let relayNamespace {
                let path = relayNamespace.hasPrefix("/") ? relayNamespace : "/var/run/netns/\(relayNamespace)"
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                joinFailure = descriptor < 0 ? errno : ctv_join_network_namespace(descriptor)
                if descriptor >= 0 { close(descriptor) }
            }
            joined.signal()
            guard joinFailure == 0 else {
                lifetime.ended()
                return
            }
            lifetime.run(loop, fail: fail, onFailure: onFailure)
        }
        thread.name = "tunnel"
        thread.start()
        self.thread = thread
        joined.wait()
        if joinFailure != 0 { throw .namespace(relayNamespace ?? "", errno: joinFailure) }
    }

    /// The stop order of the tunnel-provider spec: close every relay flow first (answers to a
    /// stopping tunnel go nowhere), stop the loop, then flush the pipeline (capture synced, the
    /// store queue drained). The caller closes the sinks and the device afterwards.
    package func stop() async {
        loop.execute { [unowned self] in
            control?.close()
            relay.closeAll()
            loop.stop()
        }
        // After a failure the loop has ended and this closure never runs: the failure closed the
        // relay and the control socket already.
        await lifetime.waitUntilEnded()
        let pipeline = UncheckedBox(pipeline)
        await pipeline.value.shutdown()
    }

    /// Asks which program opened each TCP and UDP flow, in the network namespace `namespace`'s
    /// descriptor refers to (taken: closed with the attributor); a namespace not found is said on
    /// every flow. Call before `start`.
    func attributePrograms(namespace: Result<Int32, LinkStatisticsError>) {
        let programs = ProgramLookupFront(namespace: namespace) { [weak self] in
            // A stopped loop runs nothing more: answers after the stop go nowhere.
            self?.loop.execute { [weak self] in
                guard let self else { return }
                self.programs?.recordQueued(into: pipeline)
            }
        }
        self.programs = programs
        pipeline.flowOpened = { key, local, remote, firstSeen in
            programs.flowOpened(key, local: local, remote: remote, firstSeen: firstSeen)
        }
    }

    /// Runs `body` on the loop thread and hands back its result (for `stats` and the control
    /// channel's commands).
    package func onLoop<T: Sendable>(_ body: @escaping @Sendable (TunnelRuntime) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { [unowned self] in continuation.resume(returning: body(self)) }
        }
    }

    package var relayStats: RelayStats { relay.stats }

    /// What the device and the relay's sockets refused (loop thread), and what the kernel counted
    /// on the device (asked now: a few system calls, so only when the stats are asked and at the end).
    package var shellStats: ShellStats {
        var device = deviceHealth.counts
        switch self.device.kernelCounters() {
        case .success(let counters): device.kernel = counters
        case .failure(let problem): device.kernelProblem = problem.description
        case nil: break
        }
        return ShellStats(device: device, sockets: connector.stats)
    }

    /// Why the tunnel stopped by itself; nil while it runs, and after a `stop` it did not fail before.
    package var failure: TunnelFailure? {
        lifetime.failure
    }

    /// Ends the tunnel for `failure` on the loop thread: the device unwatched (a gone device is
    /// reported on every turn), the control socket and every relay flow closed, the loop stopped.
    /// Only the first failure is kept.
    private func fail(_ failure: TunnelFailure) {
        guard lifetime.record(failure) else { return }
        try? loop.unregister(device.descriptor)
        control?.close()
        relay.closeAll()
        loop.stop()
    }

    private func readDevice(_ readiness: EventLoop.Readiness) {
        loop.assertOnLoopThread()
        let result = device.read(into: batch)
        if case .stop(let failure) = deviceHealth.read(result, readiness: readiness) {
            fail(failure)
            return
        }
        guard case .processed = result else { return }
        let now = MonotonicAnchor.uptimeNow()
        for index in 0..<batch.count {
            if device.segmentationOffload { completeChecksumForCapture(ofDatagram: index) }
            let datagram = batch[index]
            switch pipeline.handle(packet: datagram, now: now) {
            case .passthrough(let packet): relay.passthrough(packet, datagram: batch.lend(index))
            case .refused(let packet): relay.refuse(packet, datagram: batch.lend(index))
            case .dropped: break
            }
        }
        #if DEBUG
        // The relay was lent the datagrams, not given them: whatever it kept without copying
        // reads this pattern in the tests, not the next read's bytes by chance.
        batch.scribbleOver()
        #endif
        programs?.recordOpened(into: pipeline)
        pipeline.wakeLiveFeed()
    }

    /// The relay's answer to the device: written to it (a batch of one, no copy), then recorded
    /// like any packet.
    private func deliver(_ datagram: UnsafeRawBufferPointer, header: VirtioNetHeader) {
        loop.assertOnLoopThread()
        // A failed tunnel's last answers (the resets of closing flows) have no device to go to.
        guard failure == nil else { return }
        let written = device.write(datagram, header: header)
        if case .stop(let failure) = deviceHealth.wrote(refusal: written.refusal) { fail(failure) }
        guard written.written == 1 else { return }
        if header.needsChecksum, pipeline.capturesWhole(length: datagram.count) {
            // The relay's scratch, ours until this returns and already written: the capture gets
            // the checksum the kernel completed on its side.
            InternetChecksum.completePartial(in: UnsafeMutableRawBufferPointer(mutating: datagram),
                                             start: Int(header.checksumStart), offset: Int(header.checksumOffset))
        }
        _ = pipeline.record(reinjected: datagram, now: MonotonicAnchor.uptimeNow())
    }

    /// A checksum the kernel left partial (checksum offload) is completed in the batch before a
    /// capture that keeps the packet whole records it: the file carries what the wire would.
    /// Captures of headers only, which no reader can check, skip the pass over the bytes.
    private func completeChecksumForCapture(ofDatagram index: Int) {
        guard let header = VirtioNetHeader(batch.prefix(of: index, length: VirtioNetHeader.byteCount)), header.needsChecksum,
              pipeline.capturesWhole(length: batch[index].count) else { return }
        InternetChecksum.completePartial(in: batch.mutableDatagram(index), start: Int(header.checksumStart),
                                         offset: Int(header.checksumOffset))
    }

    private func scheduleTick() {
        _ = loop.schedule(after: Self.tickInterval) { [weak self] in
            guard let self else { return }
            for key in pipeline.tick(now: MonotonicAnchor.uptimeNow()) { relay.close(key) }
            // Flows opened outside a batch read from the device (by the relay's own packets).
            programs?.recordOpened(into: pipeline)
            pipeline.wakeLiveFeed()
            recording?.sweepAfterRotation()
            scheduleTick()
        }
    }

}

/// Hands a value owned by one thread to the next owner once the first has let go of it.
///
/// `@unchecked Sendable`: `value` is a `let`, and a box is made only once the value's old owner is
/// done with it (the runtimes box their pipeline after the loop thread has ended), so one thread
/// uses it at a time.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Why the tunnel could not start. Each case says what the person can do.
package enum TunnelRuntimeError: Error, Equatable, CustomStringConvertible {
    /// The TUN device could not be watched by the event loop: the device was closed before the
    /// start (open a new one), or the loop refused it (the event-loop error says why).
    case loop(EventLoopError)
    /// The loop thread could not join the relay's network namespace `name` (under
    /// /var/run/netns). ENOENT: no such namespace (`ip netns list`, or create it); EPERM: joining
    /// needs CAP_SYS_ADMIN (run as root).
    case namespace(String, errno: Int32)

    package var description: String {
        switch self {
        case .loop(let error): "cannot watch the TUN device: \(error)"
        case .namespace(let name, let code):
            "cannot join network namespace \(name): \(SystemError.text(code))" + Self.namespaceHint(code)
        }
    }

    private static func namespaceHint(_ code: Int32) -> String {
        switch code {
        case ENOENT: " (no such namespace: see ip netns list)"
        case EPERM: " (joining a namespace needs root)"
        default: ""
        }
    }
}
