import PacketTunnel
import Shared

/// The control channel's commands about recording — the pipeline's stats, capture on and off,
/// its rotation and detail — answered the same way by every runtime, on its loop thread, and the
/// retention pass each rotation asks for.
final class RecordingControl {
    let pipeline: PacketPipeline
    let capture: PcapFileWriter?
    let retention: RetentionSweeper?
    /// The capture file last swept for (a rotation, by the writer or by the control, moves it on).
    private var sweptSequence: UInt32?

    init(pipeline: PacketPipeline, capture: PcapFileWriter?, retention: RetentionSweeper?) {
        self.pipeline = pipeline
        self.capture = capture
        self.retention = retention
        sweptSequence = capture?.currentFileSequence
    }

    /// Why a session that started with capture off cannot capture until the next one.
    static var noCaptureFile: String { "this session started with capture off, so it has no capture file: capture begins with the next session" }

    /// The pipeline's counters with what retention did.
    var pipelineStats: PipelineStats {
        var stats = pipeline.stats
        stats.retention = retention?.stats
        if let swept = retention?.plaintextStats, stats.plaintext != nil {
            stats.plaintext?.plaintextChunksExpired = swept.chunksExpired
            stats.plaintext?.plaintextFilesReclaimed = swept.filesReclaimed
        }
        return stats
    }

    /// The answer to a recording command (`setCaptureEnabled`, `rotateCapture`, `setCaptureDetail`);
    /// the runtime answers the others itself.
    func answer(_ command: ControlCommand) -> ControlResponse {
        switch command {
        case .setCaptureEnabled(let enabled):
            // A session that started with capture off has no file to write to.
            if enabled && capture == nil { return .failed(Self.noCaptureFile) }
            pipeline.setCaptureEnabled(enabled)
            return .ok
        case .rotateCapture:
            guard let capture else { return .failed(Self.noCaptureFile) }
            do { try capture.rotate() } catch { return .failed("\(error)") }
            sweepAfterRotation()
            return .ok
        case .setCaptureDetail(let detail):
            // The snaplen belongs to the file's header, so a new detail starts a new file.
            guard let capture else { return .failed(Self.noCaptureFile) }
            do { try capture.setSnaplen(detail.snaplen) } catch { return .failed("\(error)") }
            return .ok
        case .stats, .setTLSInspectionEnabled, .setPlaintextPersistenceEnabled:
            return .failed("\(command) is not a recording command")
        }
    }

    /// Asks for a retention pass when the capture writer is on a new file since the last one
    /// (one integer compared; the pass itself runs elsewhere). The tick calls it too, for the
    /// writer's own rotations at its size threshold.
    func sweepAfterRotation() {
        guard let capture, let retention, capture.currentFileSequence != sweptSequence else { return }
        sweptSequence = capture.currentFileSequence
        retention.sweep(recordingSequence: capture.currentFileSequence)
    }
}
