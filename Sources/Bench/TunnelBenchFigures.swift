/// One path's figures in `tvlab bench tunnel`: every run's result as it came, and the median the
/// report shows. A figure never measured (its tool missing, or its runs failed) has no samples
/// and no median.
package struct PathFigures: Sendable, Equatable {
    /// iperf3's receiver rate, client to server, bit/s.
    package var upload: [Double] = []
    /// The same with `-R`, server to client, bit/s.
    package var download: [Double] = []
    /// Each run's median 1-byte round trip, µs.
    package var roundTrip: [Double] = []
    /// Each run's connections per second (connect, 1 byte each way, close).
    package var connectionRate: [Double] = []

    package init() {}

    /// `other`'s runs after these: a round's runs added to the earlier rounds'.
    package mutating func append(_ other: PathFigures) {
        upload += other.upload
        download += other.download
        roundTrip += other.roundTrip
        connectionRate += other.connectionRate
    }

    package var medianUpload: Double? { BenchStatistics.median(upload) }
    package var medianDownload: Double? { BenchStatistics.median(download) }
    package var medianRoundTrip: Double? { BenchStatistics.median(roundTrip) }
    package var medianConnectionRate: Double? { BenchStatistics.median(connectionRate) }
}

/// A path set against the direct path: rates as fractions of direct's (0.8 = 80 %), latency as
/// the microseconds it adds to direct's median round trip. Nil wherever either side is missing,
/// or direct's rate is zero (no ratio to a path that carried nothing).
package struct PathComparison: Sendable, Equatable {
    package let uploadRatio: Double?
    package let downloadRatio: Double?
    package let addedRoundTripMicroseconds: Double?
    package let connectionRateRatio: Double?

    package init(_ path: PathFigures, direct: PathFigures) {
        uploadRatio = Self.ratio(path.medianUpload, to: direct.medianUpload)
        downloadRatio = Self.ratio(path.medianDownload, to: direct.medianDownload)
        connectionRateRatio = Self.ratio(path.medianConnectionRate, to: direct.medianConnectionRate)
        if let latency = path.medianRoundTrip, let directLatency = direct.medianRoundTrip {
            addedRoundTripMicroseconds = latency - directLatency
        } else {
            addedRoundTripMicroseconds = nil
        }
    }

    package static func ratio(_ value: Double?, to reference: Double?) -> Double? {
        guard let value, let reference, reference > 0 else { return nil }
        return value / reference
    }
}

/// Download through the tunnel with whole packets captured, against what the disk under the
/// data directory writes sequentially: the capture is bounded by the disk, so the figure is how
/// close to that bound the tunnel comes (1.0 = it carries exactly what the disk could write).
package struct FullCaptureFigures: Sendable, Equatable {
    /// Tunnel download rates with `--capture-detail full`, bit/s.
    package var download: [Double] = []
    /// Sequential write rates of the data directory's disk (1 GiB, one fsync), bytes/s.
    package var diskWrite: [Double] = []

    package init() {}

    package var medianDownload: Double? { BenchStatistics.median(download) }
    package var medianDiskWrite: Double? { BenchStatistics.median(diskWrite) }

    /// Payload bytes carried per second over bytes the disk writes per second.
    package var ratioToDisk: Double? {
        PathComparison.ratio(medianDownload.map { $0 / 8 }, to: medianDiskWrite)
    }
}
