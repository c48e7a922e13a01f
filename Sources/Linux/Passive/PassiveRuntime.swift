#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import Posix
import Shared

/// The relay-less runtime (DESIGN.md § What is monitored, passive): one event-loop thread reads
/// the packet ring of an interface and records every IP packet through the same pipeline a
/// tunnel uses — names, TLS facts, capture, history, live feed — and nothing else: no route is
/// touched and nothing is forwarded, so nothing can be inspected either. It ticks once a second to
/// expire flows and learn the namespace's addresses again; each flow's program is asked for as
/// the tunnel asks, when one of its ends is this machine's.
///
/// Drops are never silent: the kernel counts what did not fit the ring (`shellStats`); frames
/// that are not IP are counted, as are packets cut to a block.
///
/// `@unchecked Sendable`: `programs`, `control` and `recording` are set before `start`; from then
/// on they, `socketErrors` and `pipeline` are touched only on the loop thread (others go through
/// `loop.execute`) until the loop has ended.
final class PassiveRuntime: @unchecked Sendable {
    static var tickInterval: Duration { .seconds(1) }

    let ring: PacketRing
    let loop: EventLoop
    /// Touched on the loop thread only.
    let pipeline: PacketPipeline
    private let direction: LocalAddressDirection
    private let anchor: MonotonicAnchor
    private var programs: ProgramLookupFront?
    private var control: ControlServer?
    private var recording: RecordingControl?
    private var thread: Thread?
    /// The loop thread's end, and the failure that ended it.
    private let lifetime = LoopLifetime()
    /// Errors the socket reported (the interface went down meanwhile), by errno name (loop thread).
    private var socketErrors: [String: UInt64] = [:]

    init(ring: PacketRing, pipeline: PacketPipeline, direction: LocalAddressDirection,
                 anchor: MonotonicAnchor) throws(EventLoopError) {
        self.ring = ring
        self.pipeline = pipeline
        self.direction = direction
        self.anchor = anchor
        loop = try EventLoop()
    }

    /// Asks which program opened each flow with an end on this machine, in this namespace; a flow
    /// between two other machines is said to be not local, and nothing is asked. Call before `start`.
    func attributePrograms() {
        let namespace = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)
        let programs = ProgramLookupFront(namespace: namespace >= 0 ? .success(namespace) : .failure(.namespace(errno: errno))) { [weak self] in
            self?.loop.execute { [weak self] in
                guard let self else { return }
                self.programs?.recordQueued(into: pipeline)
            }
        }
        self.programs = programs
        pipeline.flowOpened = { [unowned self] key, local, remote, firstSeen in
            guard direction.isLocal(local.address) else {
                // Answered after the packet that opened it is recorded (never inside its recording).
                loop.execute { [unowned self] in pipeline.observeProgram(.notLocal, for: key, firstSeen: firstSeen) }
                return
            }
            programs.flowOpened(key, local: local, remote: remote, firstSeen: firstSeen)
        }
    }

    /// Serves the control channel at `path` (call before `start`): stats and the recording commands;
    /// inspection is refused with the reason.
    func serveControl(at path: String, capture: PcapFileWriter?, retention: RetentionSweeper?) throws(ControlSocketError) {
        let recording = RecordingControl(pipeline: pipeline, capture: capture, retention: retention)
        self.recording = recording
        control = try ControlServer(path: path, loop: loop) { [unowned self] command in
            switch command {
            case .stats:
                return .stats(TunnelStats(pipeline: recording.pipelineStats, relay: nil, resolvers: nil, shell: shellStats))
            case .setCaptureEnabled, .rotateCapture, .setCaptureDetail:
                return recording.answer(command)
            case .setTLSInspectionEnabled, .setPlaintextPersistenceEnabled:
                return .failed(Self.noInspection)
            }
        }
    }

    /// Why a passive target is never inspected.
    static var noInspection: String {
        "a watched interface is only listened to: its connections do not pass through TunnelVision, so none can be inspected"
    }

    /// Starts the loop on its own thread. `onFailure` is called once, on the loop thread, when
    /// monitoring stops by itself (the interface is gone).
    func start(onFailure: (@Sendable (TunnelFailure) -> Void)? = nil) throws(EventLoopError) {
        try loop.register(ring.descriptor, interest: .read) { [unowned self] readiness in readRing(readiness) }
        refreshAddresses()
        scheduleTick()
        HeapPolicy.giveBackPeriodically(on: loop) { [weak self] in self?.pipeline.releaseUnusedCapacity() }
        let thread = Thread { [self] in
            lifetime.run(loop, fail: fail, onFailure: onFailure)
        }
        thread.name = "passive"
        thread.start()
        self.thread = thread
    }

    /// Stops the loop, then flushes the pipeline. The caller closes the sinks afterwards.
    func stop() async {
        loop.execute { [unowned self] in
            control?.close()
            loop.stop()
        }
        await lifetime.waitUntilEnded()
        let pipeline = UncheckedBox(pipeline)
        await pipeline.value.shutdown()
    }

    /// What the kernel counted on the capture socket (asked now), the frames skipped and the
    /// socket's errors.
    var shellStats: ShellStats {
        var device = ShellStats.Device(readFailures: socketErrors)
        switch ring.kernelCounters() {
        case .success(let counters): device.kernel = counters
        case .failure(let problem): device.kernelProblem = problem.description
        }
        device.framesNotIP = ring.framesNotIP
        device.framesCut = ring.framesCut
        return ShellStats(device: device)
    }

    var failure: TunnelFailure? {
        lifetime.failure
    }

    private func fail(_ failure: TunnelFailure) {
        guard lifetime.record(failure) else { return }
        try? loop.unregister(ring.descriptor)
        control?.close()
        loop.stop()
    }

    private func readRing(_ readiness: EventLoop.Readiness) {
        if readiness.contains(.error) { socketFailed() }
        let everyInterface = ring.interfaceIndex == 0
        let blocks = ring.readBlocks { packet in
            guard direction.keeps(packet.bytes, outgoing: packet.outgoing, onEveryInterface: everyInterface) else { return }
            let now = anchor.uptime(forNanosecondsSince1970: packet.nanosecondsSince1970)
            pipeline.handle(packet: packet.bytes, originalLength: packet.length, now: now)
        }
        programs?.recordOpened(into: pipeline)
        if blocks > 0 { pipeline.wakeLiveFeed() }
    }

    /// The socket reported an error: its interface went down (ENETDOWN), and is perhaps gone.
    private func socketFailed() {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(ring.descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        if code != 0 { socketErrors[SystemError.name(code), default: 0] += 1 }
        if ring.interfaceIndex != 0 && if_nametoindex(ring.interface) != UInt32(ring.interfaceIndex) {
            fail(.interfaceGone(ring.interface))
        }
    }

    private func refreshAddresses() {
        if let addresses = LocalAddresses.current() { direction.addresses = addresses }
    }

    private func scheduleTick() {
        _ = loop.schedule(after: Self.tickInterval) { [weak self] in
            guard let self else { return }
            _ = pipeline.tick(now: MonotonicAnchor.uptimeNow())
            pipeline.wakeLiveFeed()
            refreshAddresses()
            recording?.sweepAfterRotation()
            scheduleTick()
        }
    }
}
