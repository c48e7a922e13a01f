import Foundation
import Shared
import Testing
import App

/// The view model's three rules against a scripted control channel (the seam the seed names).
@Suite("Diagnostics view model")
struct DiagnosticsViewModelTests {
    /// Answers each command with the next scripted reply, and records what it was asked.
    actor ScriptedChannel {
        enum Reply: Sendable { case answer(ControlResponse), fail(any Error & Sendable) }
        private var replies: [Reply]
        private(set) var commands: [ControlCommand] = []

        init(_ replies: [Reply]) { self.replies = replies }

        func send(_ command: ControlCommand) throws -> ControlResponse {
            commands.append(command)
            guard !replies.isEmpty else { throw Refused() }
            switch replies.removeFirst() {
            case let .answer(response): return response
            case let .fail(error): throw error
            }
        }

        nonisolated var closure: DiagnosticsViewModel.Send { { try await self.send($0) } }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "Connection refused" } }
    /// An error with no words of its own: its case name must never reach the screen.
    enum Opaque: Error { case channelBrokeInternally }

    static let live = TunnelStats(pipeline: PipelineStats(packetsHandled: 9), relay: .zero,
                                  resolvers: ResolverStatus(announced: ["198.19.0.2"], reportedAtStart: ["198.19.0.2"]))

    @Test("nothing is asked when no tunnel is live; the screen says there is nothing to diagnose")
    func nothingAskedWhenNotLive() async {
        let channel = ScriptedChannel([.answer(.stats(Self.live))])
        let model = DiagnosticsViewModel(send: channel.closure)
        await model.refresh()
        #expect(await channel.commands.isEmpty)
        #expect(await model.screen.headline.verdict == "notMonitoring")
        #expect(await model.failure == nil)
    }

    @Test("a failed query keeps the last counters and says why, in the system's words")
    func failureKeepsCounters() async {
        let channel = ScriptedChannel([.answer(.stats(Self.live)), .fail(Refused()), .answer(.failed("No space left on device"))])
        let model = DiagnosticsViewModel(isMonitoring: true, send: channel.closure)
        await model.refresh()
        await model.refresh()
        #expect(await model.stats == Self.live)
        #expect(await model.failure == "Connection refused")
        #expect(await model.screen.sections.first { $0.key == "errors" }?.rows.first?.value == "Connection refused")
        await model.refresh()
        #expect(await model.stats == Self.live)
        #expect(await model.failure == "No space left on device")
        #expect(await channel.commands == [.stats, .stats, .stats])
    }

    @Test("a failure reason is never a case name, and an unexpected reply keeps the counters too")
    func neverACaseName() async {
        let channel = ScriptedChannel([.answer(.stats(Self.live)), .fail(Opaque.channelBrokeInternally), .answer(.ok)])
        let model = DiagnosticsViewModel(isMonitoring: true, send: channel.closure)
        await model.refresh()
        await model.refresh()
        let reason = await model.failure ?? ""
        #expect(!reason.isEmpty && !reason.contains("channelBrokeInternally"))
        await model.refresh()
        #expect(await model.stats == Self.live)
        #expect(await model.failure?.contains("without its counters") == true)
    }

    @Test("stopping clears the counters, the failure and the resolver's notice with them")
    func stoppingClears() async {
        let warned = TunnelStats(pipeline: .zero, relay: .zero, resolvers: ResolverStatus(announced: [], reportedAtStart: []))
        let channel = ScriptedChannel([.answer(.stats(warned)), .fail(Refused())])
        let model = DiagnosticsViewModel(isMonitoring: true, send: channel.closure)
        await model.refresh()
        #expect(await model.screen.resolverNotice != nil)
        await model.refresh()
        await model.tunnelStateDidChange(isMonitoring: false)
        #expect(await model.stats == nil)
        #expect(await model.failure == nil)
        let screen = await model.screen
        #expect(screen.resolverNotice == nil && screen.sections.isEmpty && screen.headline.verdict == "notMonitoring")
    }

    @Test("a tunnel that answers 'no session' has stopped: the counters go, and nothing more is asked")
    func notRunningReplyStops() async {
        let channel = ScriptedChannel([.answer(.stats(Self.live)), .answer(.notRunning), .answer(.stats(Self.live))])
        let model = DiagnosticsViewModel(isMonitoring: true, send: channel.closure)
        await model.refresh()
        await model.refresh()
        let (stats, live) = await (model.stats, model.isMonitoring)
        #expect(stats == nil && !live)
        await model.refresh()
        #expect(await channel.commands.count == 2)
    }
}
