#if canImport(Glibc)
import Glibc
#endif
import Fixtures
import Foundation
import Shared

/// Writes every harness's seed corpus: `FuzzCorpus DIR` fills DIR/<harness>/ and exits. The seeds
/// are the tests' own vectors — the RFC and aioquic QUIC Initials, the hand-counted TLS hellos and
/// certificates (their files are symlinked into this folder from Tests/), the DNS and TLS fixtures
/// and synthetic traffic — each behind the control bytes its harness reads first.
///
/// Built like a harness because under `--sanitize=fuzzer` libFuzzer owns `main`: the work is done
/// in `LLVMFuzzerInitialize`, which libFuzzer calls with the command line before anything else.
@_cdecl("LLVMFuzzerInitialize")
public func writeCorpus(_ argc: UnsafeMutablePointer<Int32>,
                        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> Int32 {
    guard argc.pointee == 2, let path = argv.pointee[1] else {
        FileHandle.standardError.write(Data("usage: FuzzCorpus DIR\n".utf8))
        exit(2)
    }
    let directory = URL(fileURLWithPath: String(cString: path))
    do {
        for (harness, seeds) in Seeds.all {
            let folder = directory.appendingPathComponent(harness)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, seed) in seeds.enumerated() {
                try seed.write(to: folder.appendingPathComponent(String(format: "seed-%03d", index)))
            }
        }
    } catch {
        FileHandle.standardError.write(Data("FuzzCorpus: \(error)\n".utf8))
        exit(1)
    }
    // `_exit`: the seeds' values are still live in this frame, which LeakSanitizer's exit-time
    // check would report as leaks.
    _exit(0)
}

/// Never called: `writeCorpus` exits first. libFuzzer's driver needs the symbol to link.
@_cdecl("LLVMFuzzerTestOneInput")
public func noInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { 0 }
