import Bench
import Testing

/// VmRSS and VmHWM from the text of /proc/PID/status (lines as the kernel writes them: name,
/// colon, tab, the value right-aligned in 8 columns, " kB").
@Suite("ProcessMemory")
struct ProcessMemoryTests {
    @Test("both lines are read, in KiB, wherever they sit among the others")
    func reads() {
        let status = "Name:\ttunnelvision\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t4242\n"
            + "VmPeak:\t  412340 kB\nVmSize:\t  398000 kB\nVmLck:\t       0 kB\n"
            + "VmHWM:\t   40960 kB\n"       // 40 MiB at the peak
            + "VmRSS:\t   31250 kB\n"       // 31 250 KiB now = 32 000 000 bytes
            + "RssAnon:\t   20000 kB\nThreads:\t4\n"
        #expect(ProcessMemory.read(status: status) == ProcessMemory(residentBytes: 32_000_000, peakResidentBytes: 41_943_040))
    }

    @Test("a status without memory lines (a kernel thread, a zombie) or with a garbled value reads as nothing")
    func missing() {
        #expect(ProcessMemory.read(status: "Name:\tkworker/0:1\nState:\tI (idle)\n") == nil)
        #expect(ProcessMemory.read(status: "VmHWM:\t   100 kB\nVmRSS:\t   lots kB\n") == nil)
        #expect(ProcessMemory.read(status: "VmHWM:\t   100 kB\nVmRSS:\t   100 MB\n") == nil)
        #expect(ProcessMemory.read(status: "VmHWM:\t99999999999999999 kB\nVmRSS:\t1 kB\n") == nil)
    }
}
