#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `run --json-summary FILE` holds CMD's command line, so FILE is the user's alone: a new 0600
/// file replaces whatever was there, a symbolic link is never written through, a pipe still gets
/// it, and under sudo the file is the invoking user's. Needs root; every run is inside a lab's
/// host namespace.
@Suite("run --json-summary writes a file of the user's alone", .serialized)
struct RunSummaryFileTests {
    typealias Summary = RunHonestSummaryTests

    @Test("an existing 0644 file is replaced by a 0600 one; a link is refused before CMD, its target untouched; /dev/stdout gets the summary")
    func modes() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-summary-mode")
        let data = work.url.appendingPathComponent("data")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        func run(_ summary: String, _ command: [String] = ["true"], environment: [String] = []) throws -> (status: Int32, out: String, err: String) {
            try Summary.inHost(lab, (environment.isEmpty ? [] : ["/usr/bin/env"] + environment)
                               + [tunnelvision, "run", "--data-dir", data.path, "--no-capture", "--json-summary", summary, "--"] + command)
        }

        let file = work.url.appendingPathComponent("summary.json")
        try Data("old\n".utf8).write(to: file)
        chmod(file.path, 0o644)
        let replaced = try run(file.path)
        #expect(replaced.status == 0, "\(replaced.err)")
        #expect(PathStatus.of(file.path)?.mode == 0o600)
        #expect(try Summary.json(file)["exitStatus"] as? Int == 0)

        let target = work.url.appendingPathComponent("elsewhere.txt"), link = work.url.appendingPathComponent("link.json")
        try Data("keep\n".utf8).write(to: target)
        chmod(target.path, 0o644)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let marker = work.url.appendingPathComponent("cmd-ran")
        let linked = try run(link.path, ["touch", marker.path])
        #expect(linked.status == 1)
        #expect(linked.err.contains("cannot write the JSON summary to \(link.path): \(link.path) is a symbolic link"), "\(linked.err)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "CMD ran")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep\n" && PathStatus.of(link.path)?.kind == .symbolicLink)

        let piped = try run("/dev/stdout")
        #expect(piped.status == 0, "\(piped.err)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(piped.out.utf8)) as? [String: Any], "\(piped.out.prefix(200))")
        #expect(written["exitStatus"] as? Int == 0)

        let invoked = work.url.appendingPathComponent("nobody.json")
        let nobody = try run(invoked.path, environment: ["SUDO_UID=65534", "SUDO_GID=65534", "SUDO_USER=nobody"])
        #expect(nobody.status == 0, "\(nobody.err)")
        let status = try #require(PathStatus.of(invoked.path))
        #expect(status.mode == 0o600 && status.owner == 65534, "the invoking user's, and theirs alone: \(status)")
    }
}
