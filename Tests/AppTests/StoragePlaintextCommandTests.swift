import Foundation
import TestSupport
import Testing
import Shared

/// `tunnelvision storage` and decrypted content, through the built binary, its JSON read by Python.
@Suite(.serialized) struct StoragePlaintextCommandTests {
    static func run(_ arguments: [String], _ data: URL) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["storage"] + arguments + ["--data-dir", data.path])
    }

    static func files(_ data: URL) throws -> Int { try PlaintextDirectory.fileInfos(in: DataDirectoryLayout.plaintext(in: data)).count }

    @Test("storage --json has the decrypted content's figure inside the total; clear-plaintext asks, then deletes it alone")
    func figureAndClear() async throws {
        let data = TemporaryDirectory("storage-plaintext-command")
        let written = try await PlaintextFixture.content(in: data.url, chunks: 2, daysAgo: 0)
        let bytes = try written.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1.path)[.size] as! Int) }
        let usage = try Self.run(["--json"], data.url)
        #expect(usage.status == 0, "\(usage.err)")
        #expect(try PythonJSON.value(usage.out, "plaintext.files") == "2")
        #expect(try PythonJSON.value(usage.out, "plaintext.bytes") == "\(bytes)")
        #expect(try PythonJSON.value(usage.out, "plaintext.ceilingBytes") == "\(RetentionSettings.plaintextByteCeiling)")
        let history = try #require(Int(try PythonJSON.value(usage.out, "history.bytes")))
        #expect(try PythonJSON.value(usage.out, "totalBytes") == "\(bytes + history)")
        #expect(try Self.run([], data.url).out.contains("decrypted "))

        let unasked = try Self.run(["clear-plaintext"], data.url)
        #expect(unasked.status == 1 && unasked.err.contains("needs --yes (nothing was deleted)"))
        #expect(try Self.files(data.url) == 2)

        let cleared = try Self.run(["clear-plaintext", "--yes", "--json"], data.url)
        #expect(cleared.status == 0, "\(cleared.err)")
        #expect(try PythonJSON.value(cleared.out, "plaintext.deletedFiles") == "[1, 2]")
        #expect(try PythonJSON.value(cleared.out, "plaintext.deletedIndexEntries") == "2")
        #expect(try PythonJSON.value(cleared.out, "plaintext.spared") == "null")
        #expect(try Self.files(data.url) == 0)
        let store = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        let flows = try await store.flowCount(), chunks = try await store.plaintextChunkCount()
        #expect(flows == 1 && chunks == 0)
        await store.close()
    }

    @Test("help names clear-plaintext, the sweep in apply and the ceiling from its constant")
    func help() throws {
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "storage"])
        #expect(help.out.contains("clear-plaintext") && help.out.contains("plaintext-age"))
        #expect(help.out.contains("ceiling of 512.0 MiB"))
        #expect(help.out.contains("all decrypted content but the file being written"))
    }
}
