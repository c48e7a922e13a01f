#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared

extension FaultSuite {
    /// Files a person did not make, or made wrong: a history with damaged pages, a settings file
    /// with wrong types, and symbolic links planted at the history and the ring's lock. Each is
    /// refused or reported, and left exactly as it was; no file appears at a link's target.
    func damagedAndPlantedFiles() throws(Failure) {
        try damagedHistory()
        try wrongSettings()
        for name in [DataDirectoryLayout.databaseFileName, DataDirectoryLayout.ringFileName + ".lock"] {
            try plantedSymlink(at: name)
        }
    }

    /// SQLite's default page size, which the history keeps.
    static let pageBytes = 4096

    private func damagedHistory() throws(Failure) {
        let data = dataDirectory("damaged")
        let firstErrors = lab.path("history.err")
        let first = try lab.run(data: data, command: ["curl", "-sS", "-o", "/dev/null", lab.bigFileURL], name: "tunnelvision run (history)",
                                errors: firstErrors)
        let firstOutcome = try first.wait(seconds: 60)
        guard firstOutcome.succeeded else {
            record("a damaged history", false, "the run that makes the history failed: \(firstOutcome.summary) \(text(firstErrors).suffix(300))")
            return
        }
        let database = DataDirectoryLayout.database(in: URL(fileURLWithPath: data)).path
        // Everything into the main file first (python's sqlite3, not ours), so the damage below
        // hits pages the history needs rather than ones its write-ahead log would override.
        let checkpoint = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()"
        do { try ExternalCommand.run([LabScripts.python, "-c", checkpoint, database]) } catch {
            record("a damaged history", false, "cannot checkpoint the history: \(error)")
            return
        }
        guard var bytes = FileManager.default.contents(atPath: database), bytes.count >= 2 * Self.pageBytes else {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []
            let sizes = files.sorted().map { "\($0) \((try? FileManager.default.attributesOfItem(atPath: data + "/" + $0)[.size]) ?? "?")" }
            record("a damaged history", false, "no history of at least two pages at \(database): \(sizes.joined(separator: ", "))")
            return
        }
        // Every page after the first (which holds the header and the schema's root) overwritten
        // with garbage: the tables' pages are damaged, the file still says it is SQLite.
        for index in Self.pageBytes..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 131) }
        guard FileManager.default.createFile(atPath: database, contents: bytes) else { throw Failure("cannot damage \(database)") }
        let errors = lab.path("damaged.err")
        let next = try lab.run(data: data, command: ["true"], name: "tunnelvision run (damaged history)", errors: errors)
        let outcome = try next.wait(seconds: 60)
        let unchanged = FileManager.default.contents(atPath: database) == bytes
        let message = text(errors).split(separator: "\n").first { $0.contains("history") || $0.contains("database") }
        record("a history with damaged pages", !outcome.succeeded && unchanged && message != nil,
               "run: \(outcome.summary), file \(unchanged ? "unchanged" : "CHANGED"), " + (message.map { "\"\($0)\"" } ?? "no word of it"))
    }

    private func wrongSettings() throws(Failure) {
        let data = dataDirectory("wrong-types")
        guard mkdir(data, 0o700) == 0 else { throw Failure("cannot make \(data)", errno: errno) }
        let settings = DataDirectoryLayout.settings(in: URL(fileURLWithPath: data)).path
        let bytes = Data("{\"captureEnabled\": \"yes\", \"aKeyFromTheFuture\": 1}\n".utf8)
        guard FileManager.default.createFile(atPath: settings, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw Failure("cannot write \(settings)")
        }
        let errors = lab.path("settings.err")
        let run = try lab.run(data: data, command: ["true"], name: "tunnelvision run (wrong settings)", errors: errors)
        let outcome = try run.wait(seconds: 60)
        let unchanged = FileManager.default.contents(atPath: settings) == bytes
        let message = text(errors).split(separator: "\n").first { $0.contains("settings") }
        record("a settings file with wrong types and an unknown key", unchanged && message != nil,
               "run: \(outcome.summary), file \(unchanged ? "unchanged" : "CHANGED"), " + (message.map { "\"\($0)\"" } ?? "no word of it"))
    }

    private func plantedSymlink(at name: String) throws(Failure) {
        let data = dataDirectory("symlink")
        guard mkdir(data, 0o700) == 0 else { throw Failure("cannot make \(data)", errno: errno) }
        let target = lab.path("symlink-target")
        guard symlink(target, data + "/" + name) == 0 else { throw Failure("cannot plant a link at \(name)", errno: errno) }
        let errors = lab.path("symlink.err")
        let run = try lab.run(data: data, command: ["true"], name: "tunnelvision run (planted link)", errors: errors)
        let outcome = try run.wait(seconds: 60)
        let targetAbsent = !FileSystem.exists(target)
        let message = text(errors).split(separator: "\n").first { $0.contains("symbolic link") }
        record("a symbolic link planted at \(name)", !outcome.succeeded && targetAbsent && message != nil,
               "run: \(outcome.summary), " + (targetAbsent ? "nothing made at the target" : "a file was MADE at the target") + ", "
                   + (message.map { "\"\($0)\"" } ?? "no word of the link"))
    }
}
