import Foundation
import TestSupport
import Testing

/// A full disk, for real: a 64 KiB tmpfs mounted in a private mount namespace of a child process
/// (never in the test's own, so nothing outside the child sees it), where `tvlab capture` streams a
/// capture through `PcapWriter` until the kernel answers ENOSPC. Needs root, as CI runs.
@Suite struct CaptureDiskFullTests {
    @Test func aFullDiskIsATypedErrorThatNamesTheFileAndTheCause() throws {
        #expect(geteuid() == 0, "mounting a tmpfs needs root: run scripts/test as root")
        let tvlab = try BuiltProduct.url("tvlab")
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("tv-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let script = """
            mount -t tmpfs -o size=64k tunnelvision-full "$1" && \
            exec "$2" capture --packets 5000 --out "$1/capture.pcap"
            """
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                          ["--mount", "--propagation", "private", "sh", "-c", script, "sh",
                                           mountPoint.path, tvlab.path])
        #expect(result.status == 1)
        #expect(result.err.contains("cannot write capture file"), "\(result.err)")
        #expect(result.err.contains("No space left on device"), "\(result.err)")
        // The mount lived and died with the child: the test's own view of the folder is empty.
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).isEmpty)
    }
}
