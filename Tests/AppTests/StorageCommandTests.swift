import Foundation
import TestSupport
import Testing
import Shared

/// `tunnelvision storage` through the built binary over a data directory of its own, its JSON read
/// by Python.
@Suite(.serialized) struct StorageCommandTests {
    static func run(_ arguments: [String], _ data: URL) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["storage"] + arguments + ["--data-dir", data.path])
    }

    static func sequences(_ data: URL) throws -> [UInt32] {
        try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data)).map(\.sequence)
    }

    static func flowCount(_ data: URL) async throws -> Int {
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data))
        let count = try await store.flowCount()
        await store.close()
        return count
    }

    @Test("usage: captures, history and total add up, with the limits and what applying them would delete")
    func usage() async throws {
        let data = TemporaryDirectory("storage-command")
        let files = try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 1])
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 30)
        let json = try Self.run(["--json"], data.url)
        #expect(json.status == 0, "\(json.err)")
        let captureBytes = files.reduce(0) { $0 + $1.byteCount }
        #expect(try PythonJSON.value(json.out, "captures")
                == "{\"bytes\": \(captureBytes), \"bytesText\": \"\(ByteCountText.binary(UInt64(captureBytes)))\", \"files\": 3}")
        #expect(try PythonJSON.value(json.out, "history.connections") == "4")
        let history = try #require(UInt64(try PythonJSON.value(json.out, "history.bytes")))
        #expect(try PythonJSON.value(json.out, "totalBytes") == "\(captureBytes + history)")
        // File 1 ended when file 2 began, 20 days ago; file 2 when file 3 began, a day ago.
        #expect(try PythonJSON.value(json.out, "plan.filesToDelete") == "[1]")
        #expect(try PythonJSON.value(json.out, "limits.maxAge") == "\"oneWeek\"")
        let human = try Self.run([], data.url)
        #expect(human.status == 0)
        #expect(human.out.contains("4 connections") && human.out.contains("in 3 files"))
        #expect(human.out.contains("applying them now would delete 1 capture ("))
        // Nothing was deleted by looking.
        #expect(try Self.sequences(data.url) == [1, 2, 3])
    }

    @Test("apply enforces the stored limits at once and always answers, also when there is nothing to delete")
    func apply() async throws {
        let data = TemporaryDirectory("storage-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 1])
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 30)
        try await RetentionFixture.connections(in: data.url, count: 2, lastSeenDaysAgo: 0, firstPort: 41_000)
        let json = try Self.run(["apply", "--json"], data.url)
        #expect(json.status == 0, "\(json.err)")
        #expect(try PythonJSON.value(json.out, "deletedFiles") == "[1, 2]")
        #expect(try PythonJSON.value(json.out, "deletedConnections") == "4")
        #expect(try PythonJSON.value(json.out, "changedAnything") == "true")
        #expect(try Self.sequences(data.url) == [3, 4])
        #expect(try await Self.flowCount(data.url) == 2)
        let again = try Self.run(["apply"], data.url)
        #expect(again.status == 0 && again.out == "nothing to delete: everything is within the limits\ndecrypted content: nothing to delete\n")
    }

    /// `storage apply` over three captures, the data directory's `file` overwritten with `text`.
    static func applyOverDamaged(_ file: (URL) -> URL, _ text: String) throws
    -> (data: TemporaryDirectory, refused: (status: Int32, out: String, err: String)) {
        let data = TemporaryDirectory("storage-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 1])
        try Data(text.utf8).write(to: file(data.url))
        return (data, try Self.run(["apply"], data.url))
    }

    @Test("apply over settings it cannot read deletes nothing and says how to fix them")
    func applyRefusesUnreadableSettings() async throws {
        let (data, refused) = try Self.applyOverDamaged(DataDirectoryLayout.settings(in:), "{not json")
        #expect(refused.status == 1 && refused.err.contains("nothing was deleted") && refused.err.contains("tunnelvision settings"))
        #expect(try Self.sequences(data.url) == [1, 2, 3])
    }

    @Test("clear without a terminal needs --yes, deleting nothing; with --yes every connection and capture go")
    func clear() async throws {
        let data = TemporaryDirectory("storage-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 1)
        let refused = try Self.run(["clear"], data.url)
        #expect(refused.status == 1 && refused.err.contains("needs --yes") && refused.err.contains("nothing was deleted"))
        #expect(try Self.sequences(data.url) == [1, 2])
        #expect(try await Self.flowCount(data.url) == 3)
        let cleared = try Self.run(["clear", "--yes", "--json"], data.url)
        #expect(cleared.status == 0, "\(cleared.err)")
        #expect(try PythonJSON.value(cleared.out, "deletedFiles") == "[1, 2]")
        #expect(try PythonJSON.value(cleared.out, "deletedConnections") == "3")
        #expect(try Self.sequences(data.url).isEmpty)
        #expect(try await Self.flowCount(data.url) == 0)
        #expect(try Self.run(["apply", "--yes"], data.url).status == 2)
    }

    @Test("clear on a terminal asks how much it will delete; anything but yes deletes nothing")
    func clearAsksOnATerminal() async throws {
        let data = TemporaryDirectory("storage-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 1)
        // script(1) gives the command a terminal; the answer comes through it.
        func clear(answering answer: String) throws -> (status: Int32, out: String) {
            let command = "\(try BuiltProduct.url("tunnelvision").path) storage clear --data-dir \(data.url.path)"
            let result = try BuiltProduct.run(URL(fileURLWithPath: "/bin/sh"),
                                              ["-c", "printf '\(answer)\\n' | script -qec \"$0\" /dev/null; echo \"status=$?\"", command])
            let status: Int32 = result.out.contains("status=0") ? 0 : 1
            return (status, result.out)
        }
        let declined = try clear(answering: "n")
        #expect(declined.out.contains("delete 3 connections, 2 captures (") && declined.out.contains("? [y/N]"))
        #expect(declined.status == 1 && declined.out.contains("nothing was deleted"))
        #expect(try Self.sequences(data.url) == [1, 2])
        let accepted = try clear(answering: "y")
        #expect(accepted.status == 0 && accepted.out.contains("deleted 2 captures"), "\(accepted.out)")
        #expect(try Self.sequences(data.url).isEmpty)
        #expect(try await Self.flowCount(data.url) == 0)
    }

    @Test("help says what each action does and when the limits are applied")
    func help() throws {
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "storage"])
        #expect(help.status == 0)
        for phrase in ["storage apply", "storage clear [--yes]", "never the one being recorded", "[y/N]"] {
            #expect(help.out.contains(phrase), "\(phrase)")
        }
    }

    // MARK: Audit evidence

    @Test("usage counts the audit evidence and apply keeps its captures, however old, deleting the rest")
    func evidenceInUsageAndApply() async throws {
        let data = TemporaryDirectory("storage-command")
        // File 1 (evidence) ended 20 days ago, file 2 ten: only file 2 goes.
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 1])
        try await RetentionFixture.evidence(in: data.url, files: [1], lastSeenDaysAgo: 30)
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 30)
        let json = try Self.run(["--json"], data.url)
        #expect(json.status == 0, "\(json.err)")
        #expect(try PythonJSON.value(json.out, "history.connections") == "5")
        #expect(try PythonJSON.value(json.out, "history.auditConnections") == "1")
        #expect(try PythonJSON.value(json.out, "plan.filesToDelete") == "[2]")
        #expect(try PythonJSON.value(json.out, "plan.keptEvidence.files") == "[1]")
        #expect(try PythonJSON.value(json.out, "plan.sizeCapHeldByEvidence") == "false")
        #expect(try Self.run([], data.url).out.contains("5 connections (1 of them audit evidence)"))
        let apply = try Self.run(["apply", "--json"], data.url)
        #expect(apply.status == 0, "\(apply.err)")
        #expect(try PythonJSON.value(apply.out, "deletedFiles") == "[2]" && PythonJSON.value(apply.out, "deletedConnections") == "4")
        #expect(try PythonJSON.value(apply.out, "keptEvidence.files") == "[1]")
        #expect(try Self.sequences(data.url) == [1, 3, 4])
        #expect(try await Self.flowCount(data.url) == 1)
    }

    @Test("apply over audit evidence it cannot read deletes no capture and no connection, and says why")
    func applyRefusesUnreadableEvidence() async throws {
        let (data, refused) = try Self.applyOverDamaged(DataDirectoryLayout.database(in:), "this is not a database")
        #expect(refused.status == 1)
        #expect(refused.out.hasPrefix("nothing was deleted\n"), "\(refused.out)")
        #expect(refused.err.contains("the capture files holding audit evidence could not be read, so nothing was deleted, "
                                     + "neither captures nor connections: the history could not be opened: "), "\(refused.err)")
        #expect(try Self.sequences(data.url) == [1, 2, 3])
        let usage = try Self.run(["--json"], data.url)
        #expect(try PythonJSON.value(usage.out, "plan") == "null")
        #expect(try PythonJSON.value(usage.out, "planProblem").hasPrefix("\"applying them now would delete nothing, neither captures "
                                                                          + "nor connections: which captures hold audit evidence cannot be read ("))
    }

    /// Two captures, the first holding audit evidence: four connections, one of them the evidence.
    static func twoCapturesAndEvidence() async throws -> TemporaryDirectory {
        let data = TemporaryDirectory("storage-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
        try await RetentionFixture.evidence(in: data.url, files: [1], lastSeenDaysAgo: 1)
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 1)
        return data
    }

    @Test("clear --yes refuses while the history holds audit evidence, saying how much; --including-evidence deletes it with the rest")
    func clearRefusesEvidenceUntilAgreed() async throws {
        let data = try await Self.twoCapturesAndEvidence()
        let refused = try Self.run(["clear", "--yes"], data.url)
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.err.contains("deleting everything would delete 1 connection of audit evidence, so nothing was deleted; "
                                     + "--including-evidence with --yes deletes it with everything else"), "\(refused.err)")
        #expect(try Self.sequences(data.url) == [1, 2])
        #expect(try await Self.flowCount(data.url) == 4)
        // Only clear takes it.
        #expect(try Self.run(["apply", "--including-evidence"], data.url).status == 2)
        let cleared = try Self.run(["clear", "--yes", "--including-evidence", "--json"], data.url)
        #expect(cleared.status == 0, "\(cleared.err)")
        #expect(try PythonJSON.value(cleared.out, "deletedFiles") == "[1, 2]")
        #expect(try PythonJSON.value(cleared.out, "deletedConnections") == "4")
        #expect(try await Self.flowCount(data.url) == 0)
    }

    @Test("clear on a terminal names the audit evidence in its question, and a yes to it deletes it too")
    func clearAsksAboutEvidenceOnATerminal() async throws {
        let data = try await Self.twoCapturesAndEvidence()
        let command = "\(try BuiltProduct.url("tunnelvision").path) storage clear --data-dir \(data.url.path)"
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/bin/sh"),
                                          ["-c", "printf 'y\\n' | script -qec \"$0\" /dev/null; echo \"status=$?\"", command])
        #expect(result.out.contains("delete 4 connections (1 of them audit evidence), 2 captures ("), "\(result.out)")
        #expect(result.out.contains("status=0") && result.out.contains("deleted 2 captures"), "\(result.out)")
        #expect(try Self.sequences(data.url).isEmpty)
        #expect(try await Self.flowCount(data.url) == 0)
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "storage"])
        #expect(help.out.contains("storage clear [--yes] [--including-evidence]") && help.out.contains("evidence is exempt from both limits"))
    }
}
