import Foundation
import Testing
import Shared
import TestSupport

/// `tunnelvision ca …` run as a person runs it, on a temporary data directory: each subcommand's
/// text, its `--json` read by Python's json, and its exit status.
@Suite struct CACommandTests {
    private func openssl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
    }

    private func ca(_ arguments: [String], _ data: TemporaryDirectory) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ca"] + arguments + ["--data-dir", data.url.path])
    }

    @Test("show, create, show --json, export --pem/--der, remove --yes: texts, documents and exit codes")
    func lifecycle() throws {
        let data = TemporaryDirectory("tv-cacmd")
        let none = try ca(["show"], data)
        #expect(none.status == 0 && none.out.hasPrefix("no local CA yet") && none.out.contains("ca create"), "\(none)")
        let noneJSON = try ca(["show", "--json"], data)
        #expect(try PythonJSON.value(noneJSON.out, "status") == "\"notCreated\"")
        #expect(try PythonJSON.value(noneJSON.out, "canCreate") == "true")

        let created = try ca(["create"], data)
        #expect(created.status == 0 && created.out.hasPrefix("created a local CA") && created.out.contains("fingerprint  SHA-256 "), "\(created)")
        #expect(!created.out.contains("PRIVATE KEY") && !created.err.contains("PRIVATE KEY"))
        let again = try ca(["create"], data)
        #expect(again.status == 1 && again.err.contains("already exists") && again.err.contains("ca remove"), "\(again)")

        let shown = try ca(["show", "--json"], data)
        #expect(shown.status == 0)
        let keys = try PythonJSON.value(shown.out, "")
        for key in ["status", "subject", "fingerprintSHA256", "notBefore", "notAfter", "certificate", "inspection", "canCreate", "canRemake", "canRemove"] {
            #expect(keys.contains("\"\(key)\":"), "\(key) missing from \(shown.out)")
        }
        #expect(!keys.contains("\"problem\""))
        let files = TemporaryDirectory("tv-cacmd-out")
        let pemPath = files.url.path + "/" + "exported.pem", derPath = files.url.path + "/" + "exported.der"
        let exported = try ca(["export", pemPath], data)
        #expect(exported.status == 0 && exported.out.contains("not the key"), "\(exported)")
        let fingerprint = try openssl(["x509", "-in", pemPath, "-noout", "-fingerprint", "-sha256"]).out
        let shownFingerprint = try PythonJSON.value(shown.out, "fingerprintSHA256").dropFirst().dropLast()
        #expect(fingerprint == "sha256 Fingerprint=\(shownFingerprint)\n")
        #expect(try ca(["export", "--der", derPath], data).status == 0)
        #expect(try openssl(["x509", "-inform", "DER", "-in", derPath, "-noout", "-fingerprint", "-sha256"]).out == fingerprint)
        #expect(!(try String(contentsOfFile: pemPath, encoding: .utf8)).contains("PRIVATE KEY"))

        let refusedBare = try ca(["remove"], data)
        #expect(refusedBare.status == 1 && refusedBare.err.contains("--yes"), "\(refusedBare)")
        let removed = try ca(["remove", "--yes", "--json"], data)
        #expect(removed.status == 0, "\(removed)")
        #expect(try PythonJSON.value(removed.out, "removed") == "true")
        #expect(try PythonJSON.value(try ca(["show", "--json"], data).out, "status") == "\"notCreated\"")
    }

    @Test("export refuses to overwrite without --force and never writes through a symbolic link")
    func exportRefusals() throws {
        let data = TemporaryDirectory("tv-cacmd")
        #expect(try ca(["export", "/tmp/never-\(UUID().uuidString).pem"], data).status == 1)
        _ = try ca(["create"], data)
        let files = TemporaryDirectory("tv-cacmd-out")
        let existing = files.url.path + "/" + "existing.pem"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let refused = try ca(["export", existing], data)
        #expect(refused.status == 1 && refused.err.contains("--force"), "\(refused)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        let target = files.url.path + "/" + "target.txt", link = files.url.path + "/" + "link.pem"
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try ca(["export", link], data).status == 1)
        #expect(try ca(["export", "--force", link], data).status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
        #expect(PathStatus.of(link)?.kind == .regularFile)
    }

    @Test("an unreadable CA is reported with exit status 1, never as none, and create refuses over it")
    func unreadable() throws {
        let data = TemporaryDirectory("tv-cacmd")
        _ = try ca(["create"], data)
        chmod(DataDirectoryLayout.caKey(in: data.url).path, 0o604)
        let shown = try ca(["show", "--json"], data)
        #expect(shown.status == 1, "\(shown)")
        #expect(try PythonJSON.value(shown.out, "status") == "\"unreadable\"")
        #expect(try PythonJSON.value(shown.out, "canCreate") == "false")
        let created = try ca(["create"], data)
        #expect(created.status == 1 && created.err.contains("chmod 600"), "\(created)")
    }

    @Test("ca remove leaves the CA when inspection cannot be turned off (settings.json is not a file)")
    func removeKeepsCAWhenSettingsCannotBeSaved() throws {
        let data = TemporaryDirectory("tv-cacmd")
        _ = try ca(["create"], data)
        try FileManager.default.createDirectory(at: DataDirectoryLayout.settings(in: data.url), withIntermediateDirectories: false)
        let removed = try ca(["remove", "--yes"], data)
        #expect(removed.status == 1 && removed.err.contains("The CA was left as it is"), "\(removed)")
        #expect(FileManager.default.fileExists(atPath: DataDirectoryLayout.caKey(in: data.url).path))
    }

    @Test("usage errors exit 2, and help tells the layout and the key's fate")
    func usageAndHelp() throws {
        let data = TemporaryDirectory("tv-cacmd")
        for arguments in [[], ["frobnicate"], ["export"], ["show", "--force"], ["create", "--yes"], ["export", "--der", "--pem", "x"]] {
            #expect(try ca(arguments, data).status == 2, "\(arguments)")
        }
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "ca"])
        #expect(help.status == 0 && help.out.contains("root-key.pem") && help.out.contains("never printed"))
    }
}
