/// A process's resident memory as `/proc/PID/status` reports it: now (VmRSS) and at its peak so
/// far (VmHWM, the high-water mark). The kernel writes both in kB meaning KiB.
package struct ProcessMemory: Sendable, Equatable {
    package let residentBytes: UInt64
    package let peakResidentBytes: UInt64

    package init(residentBytes: UInt64, peakResidentBytes: UInt64) {
        self.residentBytes = residentBytes
        self.peakResidentBytes = peakResidentBytes
    }

    /// Reads the two lines from the text of a status file, or nil when either is missing or
    /// unreadable (a kernel thread has neither; a zombie has lost them).
    package static func read(status text: String) -> ProcessMemory? {
        var resident: UInt64?
        var peak: UInt64?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { resident = kibibytes(line.dropFirst("VmRSS:".count)) }
            if line.hasPrefix("VmHWM:") { peak = kibibytes(line.dropFirst("VmHWM:".count)) }
        }
        guard let resident, let peak else { return nil }
        return ProcessMemory(residentBytes: resident, peakResidentBytes: peak)
    }

    /// "   12345 kB" → 12 641 280 bytes; anything else → nil.
    private static func kibibytes(_ field: Substring) -> UInt64? {
        let words = field.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, words[1] == "kB", let value = UInt64(words[0]) else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: 1024)
        return overflow ? nil : bytes
    }
}
