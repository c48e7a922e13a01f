#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Samples, from outside, the memory of the `tunnelvision` process whose command line names
/// `marker` (its data directory): the first resident size seen and the highest peak. From
/// outside because the monitored command lives in a PID namespace of its own and cannot see the
/// tunnel's /proc entry.
final class TunnelMemoryWatcher: @unchecked Sendable {
    static let interval: useconds_t = 100_000
    private let marker: String
    private let lock = NSLock()
    private var firstResidentKiB: Int?
    private var peakKiB: Int?
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(marker: String) {
        self.marker = marker
        Thread { [self] in
            while !isStopped {
                sample()
                usleep(Self.interval)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling; the first resident size and the peak, in KiB, when the process was seen.
    func finish() -> (firstResidentKiB: Int, peakKiB: Int)? {
        lock.lock()
        stopped = true
        lock.unlock()
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        guard let firstResidentKiB, let peakKiB else { return nil }
        return (firstResidentKiB, peakKiB)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func sample() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries where Int32(entry) != nil {
            guard let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")),
                  let text = String(data: commandLine, encoding: .utf8), text.hasPrefix("/"), text.contains(marker),
                  text.split(separator: "\0").first?.hasSuffix("/tunnelvision") == true,
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8) else { continue }
            let fields = Dictionary(status.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let kib = Int(parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") else {
                    return nil
                }
                return (String(parts[0]), kib)
            }, uniquingKeysWith: { first, _ in first })
            guard let resident = fields["VmRSS"], let peak = fields["VmHWM"], resident > 0 else { continue }
            lock.lock()
            if firstResidentKiB == nil { firstResidentKiB = resident }
            peakKiB = max(peakKiB ?? 0, peak)
            lock.unlock()
        }
    }
}
