import Shared

/// What a session failed to record while it ran, as its pipeline counted it: history batches
/// whose rows were lost (a full disk, a lock held past the timeout, a damaged file) and capture
/// writes that failed. A summary built over a history with losses says so: its connections are
/// what was written, which may miss some or count them short.
package struct RecordingLosses: Sendable, Equatable {
    package var storeBatchesFailed: UInt64
    package var packetsLostToStoreFailures: UInt64
    package var lastStoreError: String?
    package var captureFailures: UInt64
    package var captureDisabledByFailure: Bool
    package var lastCaptureError: String?

    package init(storeBatchesFailed: UInt64 = 0, packetsLostToStoreFailures: UInt64 = 0, lastStoreError: String? = nil,
                captureFailures: UInt64 = 0, captureDisabledByFailure: Bool = false, lastCaptureError: String? = nil) {
        self.storeBatchesFailed = storeBatchesFailed
        self.packetsLostToStoreFailures = packetsLostToStoreFailures
        self.lastStoreError = lastStoreError
        self.captureFailures = captureFailures
        self.captureDisabledByFailure = captureDisabledByFailure
        self.lastCaptureError = lastCaptureError
    }

    /// The losses the pipeline's counters show.
    package init(_ stats: PipelineStats) {
        self.init(storeBatchesFailed: stats.storeBatchesFailed, packetsLostToStoreFailures: stats.packetsLostToStoreFailures,
                  lastStoreError: stats.lastStoreError, captureFailures: stats.captureFailures,
                  captureDisabledByFailure: stats.captureDisabledByFailure, lastCaptureError: stats.lastCaptureError)
    }

    /// Why the history is not the whole session, as a sentence; nil when every batch was written.
    package var historyProblem: String? {
        guard storeBatchesFailed > 0 else { return nil }
        let batches = storeBatchesFailed == 1 ? "1 batch" : "\(storeBatchesFailed) batches"
        let packets = packetsLostToStoreFailures == 1 ? "1 packet" : "\(packetsLostToStoreFailures) packets"
        return "\(batches) of history (\(packets)) could not be written"
            + (lastStoreError.map { " — the last because \($0)" } ?? "")
    }

    /// Why the capture files miss packets, as a sentence; nil when no capture write failed.
    package var captureProblem: String? {
        guard captureFailures > 0 || captureDisabledByFailure else { return nil }
        let writes = captureFailures == 1 ? "1 capture write" : "\(captureFailures) capture writes"
        return "\(writes) failed" + (lastCaptureError.map { " (the last: \($0))" } ?? "")
            + (captureDisabledByFailure ? "; capture stopped at the failure, so the files end early" : "")
    }
}
