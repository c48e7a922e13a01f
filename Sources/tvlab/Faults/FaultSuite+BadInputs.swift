#if canImport(Glibc)
import Glibc
#endif
import Fixtures
import Foundation
import Linux
import Shared

extension FaultSuite {
    /// How long `analyze` may take on one small mutated capture before it counts as hung.
    static let analyzeLimitSeconds = 30.0

    /// Garbage datagrams written into the tunnel's device from inside: the tunnel counts and drops
    /// them and keeps forwarding — a download after them arrives intact.
    func garbageDatagrams() throws(Failure) {
        let count = options.garbageCount
        let data = dataDirectory("garbage")
        let output = lab.path("garbage.bin")
        let said = lab.path("garbage.out")
        let script = "\(lab.tools.tvlab) net garbage --count \(count) --seed 12 && curl -sS -o \(output) \(lab.bigFileURL)"
        let run = try lab.run(data: data, command: ["sh", "-c", script], name: "tunnelvision run (garbage)", output: said,
                              errors: lab.path("garbage.err"))
        let outcome = try run.wait(seconds: 120)
        let sent = text(said).split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        report.badInputsTried += sent
        if outcome.signal != nil { report.badInputsCrashed += 1 }
        let lost = lab.bytesLost(downloadedTo: output)
        report.bytesLost += lost
        record("\(sent) garbage datagrams into the tunnel, then a download", outcome.succeeded && sent > 0 && lost == 0,
               "run: \(outcome.summary), \(lost) bytes lost after them")
    }

    /// Captures the tunnel wrote, mutated at random (bytes flipped, records cut short) and read
    /// by `analyze`: every one ends with a report or a clear error, none by a signal or a hang.
    func mutatedCaptures() throws(Failure) {
        let data = dataDirectory("capture")
        let run = try lab.run(data: data, command: ["curl", "-sS", "-o", "/dev/null", "http://\(Lab.serverIPv4):\(FaultLab.httpPort)/"],
                              name: "tunnelvision run (capture)")
        guard try run.wait(seconds: 60).succeeded else {
            record("mutated captures", false, "the run that makes a capture failed")
            return
        }
        let captures = DataDirectoryLayout.captures(in: URL(fileURLWithPath: data)).path
        guard let name = (try? FileManager.default.contentsOfDirectory(atPath: captures))?.sorted().first(where: { $0.hasSuffix(".pcap") }),
              let original = FileManager.default.contents(atPath: captures + "/" + name), original.count > 24 else {
            record("mutated captures", false, "no capture in \(captures)")
            return
        }
        var random = SeededRandom(seed: 7)
        var crashed = 0
        var hung = 0
        var refused = 0
        for index in 0..<options.mutationCount {
            let mutated = Self.mutate(original, using: &random)
            let path = lab.path("mutated-\(index).pcap")
            guard FileManager.default.createFile(atPath: path, contents: mutated) else { throw Failure("cannot write \(path)") }
            let analyze = try BenchProcess([lab.tunnelvision, "analyze", path], name: "tunnelvision analyze")
            do {
                let outcome = try analyze.wait(seconds: Self.analyzeLimitSeconds)
                if outcome.signal != nil { crashed += 1 } else if !outcome.succeeded { refused += 1 }
            } catch {
                hung += 1
            }
            unlink(path)
        }
        report.badInputsTried += options.mutationCount
        report.badInputsCrashed += crashed + hung
        record("\(options.mutationCount) mutated captures through analyze", crashed == 0 && hung == 0,
               "\(crashed) crashed, \(hung) hung, \(refused) refused with an error, the rest analysed")
    }

    /// A few bytes past the file header changed, and sometimes the end cut off.
    static func mutate(_ original: Data, using random: inout SeededRandom) -> Data {
        var bytes = [UInt8](original)
        for _ in 0..<Int.random(in: 1...16, using: &random) {
            let offset = Int.random(in: 24..<bytes.count, using: &random)
            bytes[offset] = UInt8.random(in: 0...255, using: &random)
        }
        if Int.random(in: 0..<4, using: &random) == 0 { bytes.removeLast(Int.random(in: 1..<(bytes.count - 24), using: &random)) }
        return Data(bytes)
    }
}
