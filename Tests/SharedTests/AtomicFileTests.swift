#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct AtomicFileTests {
    static func entries(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func status(_ url: URL) -> stat {
        var status = stat()
        _ = stat(url.path, &status)
        return status
    }

    @Test func aNewFileIsCreatedOwnerOnlyWithItsDirectory() throws {
        let temporary = TemporaryDirectory()
        let file = temporary.url.appendingPathComponent("a/b/settings.json")
        try AtomicFile.replace(file, with: Data("first".utf8))
        #expect(try Data(contentsOf: file) == Data("first".utf8))
        #expect(Self.status(file).st_mode & 0o7777 == 0o600)
        #expect(Self.status(file.deletingLastPathComponent()).st_mode & 0o7777 == 0o700)
        #expect(try Self.entries(file.deletingLastPathComponent()) == ["settings.json"])
    }

    @Test func replacingSwapsInANewFileAndLeavesNothingBehind() throws {
        let temporary = TemporaryDirectory()
        let file = temporary.url.appendingPathComponent("settings.json")
        try Data("old".utf8).write(to: file)
        let before = Self.status(file).st_ino
        try AtomicFile.replace(file, with: Data("new, and longer than the old".utf8), mode: 0o640)
        #expect(try Data(contentsOf: file) == Data("new, and longer than the old".utf8))
        #expect(Self.status(file).st_ino != before)
        #expect(Self.status(file).st_mode & 0o7777 == 0o640)
        try AtomicFile.replace(file, with: Data())
        #expect(try Data(contentsOf: file).isEmpty)
        #expect(try Self.entries(temporary.url) == ["settings.json"])
    }

    @Test func aFailedRenameRemovesTheTemporaryFileAndKeepsWhatWasThere() throws {
        let temporary = TemporaryDirectory()
        let target = temporary.url.appendingPathComponent("settings.json")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("kept".utf8).write(to: target.appendingPathComponent("inside"))
        #expect {
            try AtomicFile.replace(target, with: Data("new".utf8))
        } throws: { error in
            (error as? AtomicFileError)?.step == .rename && (error as? AtomicFileError)?.replaced == false
        }
        #expect(try Self.entries(temporary.url) == ["settings.json"])
        #expect(try Data(contentsOf: target.appendingPathComponent("inside")) == Data("kept".utf8))
    }

    @Test func aParentThatIsAFileFailsBeforeAnythingIsWritten() throws {
        let temporary = TemporaryDirectory()
        let blocker = temporary.url.appendingPathComponent("data")
        try Data("a file, not a directory".utf8).write(to: blocker)
        let error = #expect(throws: AtomicFileError.self) {
            try AtomicFile.replace(blocker.appendingPathComponent("settings.json"), with: Data("new".utf8))
        }
        #expect(error == AtomicFileError(step: .createDirectory, path: blocker.path, errno: ENOTDIR))
        #expect(error?.description == "cannot create the directory \(blocker.path): Not a directory")
        #expect(try Data(contentsOf: blocker) == Data("a file, not a directory".utf8))
        #expect(try Self.entries(temporary.url) == ["data"])
    }
}
