#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The trust `run --inspect` gives is the monitored command's alone: the host's trust store is
/// never written, a leaf of the person's CA verifies inside CMD and not outside it, the private
/// directory is gone when the run ends — and one a killed run left is removed by the next run.
/// What verifies is OpenSSL's command line, inside and outside CMD's mount namespace. Needs root.
@Suite("TLS inspection's trust is the command's alone", .serialized)
struct InspectionTrustScopeTests {
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
    static let hashedDirectory = "/etc/ssl/certs"

    /// The host's trust store as bytes and names: the bundle's SHA-256 and every entry of the
    /// hashed directory with its link target or size.
    static func hostTrustStore() throws -> String {
        let bundle = try ExternalCommand.run(["sha256sum", systemBundle]).standardOutput
        let entries = try FileManager.default.contentsOfDirectory(atPath: hashedDirectory).sorted().map { entry in
            let path = hashedDirectory + "/" + entry
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
            return "\(entry) -> \(target)"
        }
        return bundle + entries.joined(separator: "\n")
    }

    /// A leaf of the lab's local CA for `host`, PEM, as the tunnel mints them.
    static func leaf(of lab: InspectionLab, host: String) throws -> URL {
        let ca = try #require(try LocalCA.load(dataDirectory: lab.data))
        let minted = try ca.authority.mintLeaf(forHost: host)
        let file = lab.file("leaf-\(host).pem")
        try Data(X509PEM.encode(minted.certificateDER, label: X509PEM.certificateLabel).utf8).write(to: file)
        return file
    }

    /// `tunnelvision run ARGUMENTS -- sh -c SCRIPT` started in the lab's host namespace with
    /// `TMPDIR` the lab's own (so the sweep sees only this test's leftovers), its standard error
    /// kept in `stderr`. The process is tunnelvision itself (each layer execs the next).
    static func start(_ lab: InspectionLab, _ arguments: [String], script: String, stderr: URL) throws -> Process {
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let command = ([tunnelvision, "run", "--data-dir", lab.data.path] + arguments + ["--", "sh", "-c", script])
            .map(Self.quoted).joined(separator: " ")
        return try LabScripts.start(["sh", "-c", "TMPDIR=\(quoted(lab.work.url.path)) HOME=\(quoted(lab.home.path)) exec \(command) 2>\(quoted(stderr.path))"],
                                    in: lab.lab.host)
    }

    static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Waits (at most 30 s) until `file` exists.
    static func waitFor(_ file: URL) throws {
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: file.path) { usleep(100_000) }
        try #require(FileManager.default.fileExists(atPath: file.path), "\(file.path) never appeared")
    }

    static func trustDirectories(in lab: InspectionLab) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: lab.work.url.path)) ?? []).filter { $0.hasPrefix("tunnelvision-trust-") }
    }

    @Test("a leaf of the person's CA verifies inside the command and not outside it; the host's trust store never changes")
    func trustIsTheCommandsAlone() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let before = try Self.hostTrustStore()
        let leaf = try Self.leaf(of: lab, host: "inside.test")
        let verify = "openssl verify -purpose sslserver -verify_hostname inside.test"
        let ready = lab.file("ready"), go = lab.file("go"), inside = lab.file("inside.txt"), stderr = lab.file("run.err")
        let script = """
            \(verify) \(leaf.path) >/dev/null 2>&1; echo "default=$?"
            \(verify) -CAfile \(Self.systemBundle) -no-CApath \(leaf.path) >/dev/null 2>&1; echo "bundle=$?"
            \(verify) -CApath \(Self.hashedDirectory) -no-CAfile \(leaf.path) >/dev/null 2>&1; echo "directory=$?"
            \(verify) -CAfile "$SSL_CERT_FILE" -no-CApath \(leaf.path) >/dev/null 2>&1; echo "variable=$?"
            echo "trust=$(dirname "$SSL_CERT_FILE")"
            touch \(ready.path)
            i=0; while [ ! -e \(go.path) ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
            """
        let run = try Self.start(lab, ["--inspect", "--upstream-ca", lab.pki.root], script: "(\(script)) > \(inside.path)", stderr: stderr)
        defer { LabScripts.stop(run) }
        try Self.waitFor(ready)

        // During the run, outside CMD: the same checks fail, the host's files are as they were.
        let outside = try ExternalCommand.run(["sh", "-c", """
            \(verify) \(leaf.path) >/dev/null 2>&1; echo "default=$?"
            \(verify) -CAfile \(Self.systemBundle) -no-CApath \(leaf.path) >/dev/null 2>&1; echo "bundle=$?"
            \(verify) -CApath \(Self.hashedDirectory) -no-CAfile \(leaf.path) >/dev/null 2>&1; echo "directory=$?"
            """]).standardOutput
        #expect(outside == "default=2\nbundle=2\ndirectory=2\n", "\(outside)")
        #expect(try Self.hostTrustStore() == before)
        let lines = try String(contentsOf: inside, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["default=0", "bundle=0", "directory=0", "variable=0"], "\(lines)")
        let trust = try #require(lines.first { $0.hasPrefix("trust=") }).dropFirst("trust=".count)
        #expect(trust.hasPrefix(lab.work.url.path + "/tunnelvision-trust-\(run.processIdentifier)-"), "\(trust)")
        let mode = try #require(PathStatus.of(String(trust))).mode
        #expect(mode == 0o700, "\(String(mode, radix: 8))")

        #expect(FileManager.default.createFile(atPath: go.path, contents: nil))
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        // After: the private directory is gone and the host's store is still as it was.
        #expect(!FileManager.default.fileExists(atPath: String(trust)))
        #expect(Self.trustDirectories(in: lab).isEmpty)
        #expect(try Self.hostTrustStore() == before)
    }

    @Test("a run killed with SIGKILL leaves its trust directory, and the next run removes it and says so")
    func killedRunsTrustIsSwept() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let ready = lab.file("ready"), stderr = lab.file("killed.err")
        let run = try Self.start(lab, ["--inspect", "--upstream-ca", lab.pki.root],
                                 script: "dirname \"$SSL_CERT_FILE\" > \(ready.path).tmp; mv \(ready.path).tmp \(ready.path); sleep 60",
                                 stderr: stderr)
        defer { LabScripts.stop(run) }
        try Self.waitFor(ready)
        let trust = try String(contentsOf: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: trust), "a killed run cannot clean up; the test would prove nothing")

        let next = lab.file("next.err"), done = lab.file("next.done")
        let second = try Self.start(lab, [], script: "touch \(done.path)", stderr: next)
        second.waitUntilExit()
        let said = (try? String(contentsOf: next, encoding: .utf8)) ?? ""
        #expect(second.terminationStatus == 0, "\(said)")
        #expect(FileManager.default.fileExists(atPath: done.path))
        #expect(!FileManager.default.fileExists(atPath: trust))
        let notice = said.split(separator: "\n").first { $0.contains("recovered from an unclean stop") }.map(String.init) ?? ""
        #expect(notice.contains("removed ") && notice.contains(trust), "\(said)")
    }
}
