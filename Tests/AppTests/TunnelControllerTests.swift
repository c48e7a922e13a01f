import Foundation
import Shared
import Testing
import App

/// The monitoring control's core (seeds/000 § Tunnel control, Tests) against a scripted double
/// of the manager, the seam the seed names: the mapping table, the failure that outlives a stop,
/// the order of set-up and start, a denial and a failed start, the status stream, and the
/// control channel through the real codec.
@Suite("Tunnel controller")
struct TunnelControllerTests {
    /// Plays the service: answers from a script and records every call, in order.
    actor ScriptedManager: TunnelProviderManaging {
        var status: TunnelStatus
        var installFailure: TunnelControlError?
        var startFailure: TunnelControlError?
        var stopFailure: TunnelControlError?
        /// What start leaves the status at when it succeeds.
        var statusAfterStart: TunnelStatus = .connected
        var controlReply: Result<Data?, TunnelControlError> = .success(nil)
        private(set) var calls: [String] = []
        private(set) var controlPayloads: [Data] = []
        nonisolated let updates: AsyncStream<TunnelStatus>
        nonisolated let push: AsyncStream<TunnelStatus>.Continuation

        init(status: TunnelStatus) {
            self.status = status
            (updates, push) = AsyncStream.makeStream(of: TunnelStatus.self)
        }

        func script(_ change: @Sendable (isolated ScriptedManager) -> Void) { change(self) }

        func loadStatus() async throws(TunnelControlError) -> TunnelStatus {
            calls.append("load")
            return status
        }

        func install(_ configuration: TunnelConfiguration) async throws(TunnelControlError) {
            calls.append("install \(configuration.target)")
            if let installFailure { throw installFailure }
            status = .disconnected
        }

        func start() async throws(TunnelControlError) {
            calls.append("start")
            if let startFailure {
                status = .disconnected
                throw startFailure
            }
            status = statusAfterStart
        }

        func stop() async throws(TunnelControlError) {
            calls.append("stop")
            if let stopFailure { throw stopFailure }
            status = .disconnected
        }

        func sendControl(_ payload: Data) async throws(TunnelControlError) -> Data? {
            calls.append("control")
            controlPayloads.append(payload)
            return try controlReply.get()
        }

        nonisolated func statusUpdates() -> AsyncStream<TunnelStatus> { updates }
    }

    /// Waits for `condition` until a deadline, yielding to the stream's task between looks.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            await Task.yield()
        }
        return await condition()
    }

    @Test("every status maps to its state; reasserting is starting, never live", arguments: [
        (TunnelStatus.notInstalled, TunnelState.notInstalled), (.disconnected, .off), (.connecting, .starting),
        (.connected, .live), (.reasserting, .starting), (.disconnecting, .stopping),
    ])
    func theMappingTable(status: TunnelStatus, state: TunnelState) {
        #expect(TunnelStatePolicy.state(for: status) == state)
        #expect(TunnelStatePolicy.next(from: .off, status: status) == state, "with no failure shown, next is the mapping")
    }

    @Test("the statuses reach every state but a failure, and only connected is live")
    func theTableReachesEveryState() {
        let reached = TunnelStatus.allCases.map(TunnelStatePolicy.state(for:))
        for state in [TunnelState.notInstalled, .off, .starting, .live, .stopping] { #expect(reached.contains(state), "\(state)") }
        #expect(!reached.contains { if case .failed = $0 { true } else { false } }, "a status alone never fails")
        #expect(TunnelStatus.allCases.filter { TunnelStatePolicy.state(for: $0).isLive } == [.connected])
    }

    @Test("a failure survives the stop that came with it, and an active status replaces it")
    func aFailureSurvivesADisconnect() {
        let failed = TunnelState.failed(.startFailed("no such namespace"))
        #expect(TunnelStatePolicy.next(from: failed, status: .disconnected) == failed)
        #expect(TunnelStatePolicy.next(from: failed, status: .notInstalled) == failed)
        for active in [TunnelStatus.connecting, .connected, .reasserting, .disconnecting] {
            #expect(TunnelStatePolicy.next(from: failed, status: active) == TunnelStatePolicy.state(for: active))
        }
    }

    @Test("Start with nothing set up sets up, then starts, then is live")
    func startSetsUpFirst() async {
        let manager = ScriptedManager(status: .notInstalled)
        let controller = TunnelController(manager: manager, configuration: TunnelConfiguration(target: .namespace("lab")))
        await controller.refresh()
        #expect(await controller.state == .notInstalled)
        await controller.startMonitoring()
        #expect(await controller.state == .live)
        #expect(await manager.calls == ["load", "load", "install network namespace lab", "start", "load"])
    }

    @Test("a Start after another target was chosen sets the manager up for it first; the same target again only starts")
    func anotherTargetIsSetUpBeforeItStarts() async {
        let manager = ScriptedManager(status: .notInstalled)
        let controller = TunnelController(manager: manager)
        await controller.startMonitoring()
        await controller.stopMonitoring()
        await controller.reconfigure(TunnelConfiguration(target: .interface("eth0")))
        await controller.startMonitoring()
        #expect(await controller.state == .live)
        #expect(await manager.calls.suffix(4) == ["load", "install interface eth0, passively", "start", "load"])
        await controller.stopMonitoring()
        await controller.startMonitoring()
        #expect(await manager.calls.suffix(3) == ["load", "start", "load"])
    }

    @Test("Start when already set up only starts; when already live it starts nothing")
    func startOnlyWhatIsNeeded() async {
        let manager = ScriptedManager(status: .disconnected)
        let controller = TunnelController(manager: manager)
        await controller.startMonitoring()
        #expect(await manager.calls == ["load", "start", "load"])
        await controller.startMonitoring()
        #expect(await manager.calls == ["load", "start", "load", "load"])
        #expect(await controller.state == .live)
    }

    @Test("a denial is a failed state the screen can retry from, and the retry clears it")
    func aDenialIsAState() async {
        let manager = ScriptedManager(status: .notInstalled)
        await manager.script { $0.installFailure = .permissionDenied }
        let controller = TunnelController(manager: manager)
        await controller.startMonitoring()
        #expect(await controller.state == .failed(.permissionDenied))
        #expect(await !manager.calls.contains("start"), "nothing starts after a denied set-up")
        await controller.refresh()
        #expect(await controller.state == .failed(.permissionDenied), "still not set up: the failure stays shown")

        await manager.script { $0.installFailure = nil }
        await controller.startMonitoring()
        #expect(await controller.state == .live)
    }

    @Test("a failed start is shown with its reason and outlives the stop the service reports")
    func aFailedStart() async {
        let manager = ScriptedManager(status: .disconnected)
        await manager.script { $0.startFailure = .startFailed("no network namespace lab") }
        let controller = TunnelController(manager: manager, configuration: TunnelConfiguration(target: .namespace("lab")))
        await controller.startObservingStatus()
        await controller.startMonitoring()
        #expect(await controller.state == .failed(.startFailed("no network namespace lab")))
        manager.push.yield(.disconnected)
        await controller.refresh()
        #expect(await controller.state == .failed(.startFailed("no network namespace lab")))
        await controller.stopObservingStatus()
    }

    @Test("an invalid configuration fails before the manager is asked anything")
    func invalidConfigurationAsksNothing() async {
        let manager = ScriptedManager(status: .disconnected)
        let controller = TunnelController(manager: manager, configuration: TunnelConfiguration(target: .interface("veth0"), inspect: true))
        await controller.startMonitoring()
        guard case .failed(.configurationFailed(let reason)) = await controller.state else {
            Issue.record("expected a configuration failure, got \(await controller.state)")
            return
        }
        #expect(reason.contains("cannot be inspected"))
        #expect(await manager.calls.isEmpty)
    }

    @Test("the status stream drives the state: starting, live, stopping, off")
    func theStreamDrivesTheState() async {
        let manager = ScriptedManager(status: .disconnected)
        let controller = TunnelController(manager: manager)
        await controller.startObservingStatus()
        for (status, state) in [(TunnelStatus.connecting, TunnelState.starting), (.connected, .live), (.reasserting, .starting),
                                (.connected, .live), (.disconnecting, .stopping), (.disconnected, .off)] {
            manager.push.yield(status)
            #expect(await Self.eventually { await controller.state == state }, "after \(status)")
        }
        await controller.stopObservingStatus()
    }

    @Test("Stop: stopping, then off; a stop that fails is shown")
    func stopping() async {
        let manager = ScriptedManager(status: .connected)
        let controller = TunnelController(manager: manager)
        await controller.refresh()
        #expect(await controller.state == .live)
        await controller.stopMonitoring()
        #expect(await controller.state == .off)
        #expect(await manager.calls == ["load", "stop", "load"])

        await manager.script { $0.status = .connected; $0.stopFailure = .controlChannelFailed("Broken pipe") }
        await controller.refresh()
        await controller.stopMonitoring()
        #expect(await controller.state == .failed(.controlChannelFailed("Broken pipe")))
    }

    @Test("a command goes out in the shared codec and its reply comes back decoded")
    func theControlRoundTrip() async throws {
        let manager = ScriptedManager(status: .connected)
        await manager.script { $0.controlReply = .success(ControlChannel.encode(ControlResponse.failed("No space left on device"))) }
        let controller = TunnelController(manager: manager)
        let response = try await controller.send(.rotateCapture)
        #expect(response == .failed("No space left on device"))
        let sent = try #require(await manager.controlPayloads.first)
        #expect(try ControlChannel.decodeCommand(sent) == .rotateCapture)
    }

    @Test("no reply is notRunning; a reply that is not a response is malformedResponse; the channel's failure passes through")
    func controlFailures() async {
        let manager = ScriptedManager(status: .connected)
        let controller = TunnelController(manager: manager)
        await #expect(throws: TunnelControlError.notRunning) { try await controller.send(.stats) }
        await manager.script { $0.controlReply = .success(Data("{\"response\":\"fireworks\"}".utf8)) }
        await #expect(throws: TunnelControlError.malformedResponse) { try await controller.send(.stats) }
        await manager.script { $0.controlReply = .success(Data([0xFF, 0x00])) }
        await #expect(throws: TunnelControlError.malformedResponse) { try await controller.send(.stats) }
        await manager.script { $0.controlReply = .failure(.controlChannelFailed("Connection reset by peer")) }
        await #expect(throws: TunnelControlError.controlChannelFailed("Connection reset by peer")) { try await controller.send(.stats) }
        #expect(await controller.state == .off, "a command's failure is the caller's, not the screen's state")
    }

    @Test("a missing privilege is a denial whatever was asked; on the control channel no socket is no service")
    func classifyingSystemErrors() {
        for operation in [TunnelControlError.Operation.install, .start, .stop, .control] {
            #expect(TunnelControlError.classifying(errno: EPERM, message: "Operation not permitted", during: operation) == .permissionDenied)
            #expect(TunnelControlError.classifying(errno: EACCES, message: "Permission denied", during: operation) == .permissionDenied)
        }
        #expect(TunnelControlError.classifying(errno: ENOENT, message: "x", during: .install) == .configurationFailed("x"))
        #expect(TunnelControlError.classifying(errno: EEXIST, message: "File exists", during: .start) == .startFailed("File exists"))
        #expect(TunnelControlError.classifying(errno: ENOENT, message: "No such file", during: .control) == .notRunning)
        #expect(TunnelControlError.classifying(errno: ECONNREFUSED, message: "refused", during: .stop) == .notRunning)
        #expect(TunnelControlError.classifying(errno: EPIPE, message: "Broken pipe", during: .control) == .controlChannelFailed("Broken pipe"))
        #expect(TunnelControlError.permissionDenied.description.contains("CAP_NET_ADMIN"))
    }

    @Test("the default is the host, not inspected, and valid; inspection of an interface is refused")
    func theConfiguration() throws {
        #expect(TunnelConfiguration.default == TunnelConfiguration(target: .host, inspect: false))
        try TunnelConfiguration.default.validate()
        try TunnelConfiguration(target: .namespace("container-1"), inspect: true).validate()
        try TunnelConfiguration(target: .interface("any")).validate()
        #expect(throws: TunnelControlError.self) { try TunnelConfiguration(target: .interface("any"), inspect: true).validate() }
        #expect(throws: TunnelControlError.self) { try TunnelConfiguration(target: .process(0)).validate() }
    }
}
