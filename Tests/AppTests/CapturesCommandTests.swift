import Foundation
import TestSupport
import Testing
import Shared

/// `tunnelvision captures` through the built binary over a data directory of its own (no tunnel:
/// the lab test, TunnelRetentionTests, covers a live one), its JSON read by Python.
@Suite(.serialized) struct CapturesCommandTests {
    static func run(_ arguments: [String], _ data: URL) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["captures"] + arguments + ["--data-dir", data.path])
    }

    @Test("the listing: newest first with sizes and UTC times, none recording with no tunnel, the footer and room left")
    func theListing() throws {
        let data = TemporaryDirectory("captures-command")
        let files = try RetentionFixture.captures(in: data.url, startedDaysAgo: [3, 2, 1])
        let json = try Self.run(["--json"], data.url)
        #expect(json.status == 0, "\(json.err)")
        #expect(try PythonJSON.value(json.out, "count") == "3")
        #expect(try PythonJSON.value(json.out, "tunnel") == "\"absent\"")
        for (index, file) in files.reversed().enumerated() {
            #expect(try PythonJSON.value(json.out, "captures.\(index).sequence") == "\(file.sequence)")
            #expect(try PythonJSON.value(json.out, "captures.\(index).bytes") == "\(file.byteCount)")
            #expect(try PythonJSON.value(json.out, "captures.\(index).name") == "\"\(file.url.lastPathComponent)\"")
            #expect(try PythonJSON.value(json.out, "captures.\(index).recording") == "false")
            #expect(try PythonJSON.value(json.out, "captures.\(index).lastWritten").hasSuffix("Z\""))
        }
        #expect(try PythonJSON.value(json.out, "bytes") == "\(files.reduce(0) { $0 + $1.byteCount })")
        #expect(try PythonJSON.value(json.out, "sizeLimit") == "\(1 << 30)")
        #expect(try PythonJSON.value(json.out, "roomLeft.size.state") == "\"roomToSpare\"")
        let human = try Self.run([], data.url)
        #expect(human.status == 0)
        let lines = human.out.split(separator: "\n").map(String.init)
        #expect(lines[0].contains(files[2].url.lastPathComponent) && lines[2].contains(files[0].url.lastPathComponent))
        #expect(!human.out.contains("recording"))
        #expect(lines[3].hasPrefix("3 captures, ") && lines[3].hasSuffix("of the 1.0 GiB limit"))
        #expect(lines[4].hasPrefix("room left: "))
    }

    @Test("rm deletes exactly the named captures and says the connections stay; a missing one fails the command, the rest still go")
    func removal() throws {
        let data = TemporaryDirectory("captures-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [3, 2, 1])
        let removed = try Self.run(["rm", "1", "99", "2"], data.url)
        #expect(removed.status == 1)
        #expect(removed.out.contains("deleted capture 1") && removed.out.contains("deleted capture 2"))
        #expect(removed.out.contains("the connections stay in the history; their raw bytes are gone"))
        #expect(removed.err.contains("capture 99 is not in the captures folder"))
        #expect(try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).map(\.sequence) == [3])
        let json = try Self.run(["rm", "3", "--json"], data.url)
        #expect(json.status == 0)
        #expect(try PythonJSON.value(json.out, "deleted") == "[3]")
        #expect(try PythonJSON.value(json.out, "failed") == "[]")
    }

    @Test("usage errors exit 2 and say what to type; rotate with no tunnel says so and exits 1")
    func refusals() throws {
        let data = TemporaryDirectory("captures-command")
        let notNumber = try Self.run(["rm", "first"], data.url)
        #expect(notNumber.status == 2 && notNumber.err.contains("first is not a capture's sequence"))
        #expect(try Self.run(["rm"], data.url).status == 2)
        #expect(try Self.run(["shred"], data.url).status == 2)
        let rotate = try Self.run(["rotate"], data.url)
        #expect(rotate.status == 1 && rotate.err.contains("no tunnel is running on") && rotate.err.contains("tunnelvision run"))
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "captures"])
        #expect(help.status == 0 && help.out.contains("captures rm SEQ...") && help.out.contains("connections stay in the history"))
        #expect(try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["--help"]).out.contains("tunnelvision captures"))
    }

    @Test("rm refuses captures holding audit evidence, naming them and their sessions, and deletes nothing; --including-evidence deletes them")
    func removalOfEvidence() async throws {
        let data = TemporaryDirectory("captures-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [3, 2, 1])
        let session = try await RetentionFixture.evidence(in: data.url, files: [2], lastSeenDaysAgo: 2, project: "Therapy app")
        // The listing marks it.
        let listed = try Self.run(["--json"], data.url)
        #expect(try PythonJSON.value(listed.out, "captures.1.sequence") == "2" && PythonJSON.value(listed.out, "captures.1.evidence") == "true")
        #expect(try PythonJSON.value(listed.out, "captures.0.evidence") == "false")
        #expect(try PythonJSON.value(listed.out, "roomLeft.keptEvidence.files") == "[2]")
        #expect(try Self.run([], data.url).out.split(separator: "\n")[1].hasSuffix("  audit evidence"))

        let refused = try Self.run(["rm", "1", "2"], data.url)
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.err.contains("capture 2 holds evidence of audit session \(session) of \"Therapy app\"; nothing was deleted: "
                                     + "--including-evidence deletes it anyway"), "\(refused.err)")
        #expect(try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).map(\.sequence) == [1, 2, 3])
        let json = try Self.run(["rm", "2", "--json"], data.url)
        #expect(json.status == 1 && json.err.contains("holds evidence of audit session"))

        let agreed = try Self.run(["rm", "1", "2", "--including-evidence"], data.url)
        #expect(agreed.status == 0, "\(agreed.err)")
        #expect(agreed.out.contains("deleted capture 1") && agreed.out.contains("deleted capture 2"))
        #expect(try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).map(\.sequence) == [3])
        // Its audit session keeps its connection, without the bytes.
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await store.flowCount(inAuditSession: session) == 1)
        await store.close()

        #expect(try Self.run(["--including-evidence"], data.url).status == 2)
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "captures"])
        #expect(help.out.contains("captures rm SEQ... [--including-evidence]") && help.out.contains("agrees to delete captures holding audit evidence"))
    }

    @Test("rm refuses a capture whose evidence cannot be checked, saying why, and deletes nothing")
    func removalWhenEvidenceCannotBeRead() throws {
        let data = TemporaryDirectory("captures-command")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [3, 2, 1])
        try Data("this is not a database".utf8).write(to: DataDirectoryLayout.database(in: data.url))
        let refused = try Self.run(["rm", "1"], data.url)
        #expect(refused.status == 1 && refused.err.contains("whether capture 1 holds audit evidence cannot be read ("), "\(refused.err)")
        #expect(refused.err.contains("is not a SQLite database"))
        #expect(try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).count == 3)
        #expect(try Self.run(["rm", "1", "--including-evidence"], data.url).status == 0)
        #expect(try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).map(\.sequence) == [2, 3])
    }
}
