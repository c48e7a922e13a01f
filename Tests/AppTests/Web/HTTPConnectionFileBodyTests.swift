import Foundation
import Testing
import TestSupport
@testable import App

/// A body left on disk (`HTTPFileBody`), as the connection hands it out: the head, then one chunk
/// asked of the shell at a time, each only once the one before is taken.
@Suite("HTTPConnection file bodies")
struct HTTPConnectionFileBodyTests {
    /// A file of `count` bytes (0, 1, 2, … 250, 0, …) in a fresh directory.
    static func file(_ count: Int) throws -> (TemporaryDirectory, HTTPFileBody, [UInt8]) {
        let directory = TemporaryDirectory("file-body")
        let bytes = (0..<count).map { UInt8($0 % 251) }
        let path = directory.url.appendingPathComponent("body").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (directory, try HTTPFileBody(opening: path), bytes)
    }

    /// Does what the shell does: sends all it is given, reads each chunk asked for.
    static func serve(_ connection: inout HTTPConnection, _ first: HTTPConnection.Action, reads: inout [Int])
        -> (sent: [UInt8], last: HTTPConnection.Action) {
        var sent: [UInt8] = []
        var action = first
        while true {
            switch action {
            case .send(let bytes):
                sent += bytes
                action = connection.wrote(bytes.count)
            case let .readBody(file, offset, count):
                reads.append(count)
                var chunk = [UInt8](repeating: 0, count: count)
                let read = chunk.withUnsafeMutableBytes { file.read(at: offset, into: $0) } ?? 0
                action = connection.bodyRead(chunk[..<read])
            default:
                return (sent, action)
            }
        }
    }

    static func response(_ file: HTTPFileBody) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "application/octet-stream")]), body: .file(file))
    }

    @Test("the head says the file's length, then the file goes out in chunks of at most bodyChunkSize, whole and in order")
    func chunks() throws {
        let size = 2 * HTTPConnection.bodyChunkSize + 123
        let (directory, file, bytes) = try Self.file(size)
        var connection = HTTPConnection()
        guard case .respond = connection.received(HTTPConnectionTests.get) else { Issue.record("no request"); return }
        var reads: [Int] = []
        let (sent, last) = Self.serve(&connection, connection.responded(Self.response(file)), reads: &reads)
        let text = String(decoding: sent, as: UTF8.self)
        #expect(text.contains("Content-Length: \(size)\r\n"))
        let headEnd = try #require(sent.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
        #expect(Array(sent[headEnd...]) == bytes)
        #expect(reads == [HTTPConnection.bodyChunkSize, HTTPConnection.bodyChunkSize, 123])
        #expect(last == .wait && connection.isIdle, "kept alive for the next request")
        _ = directory
    }

    @Test("no chunk is asked while the socket has not taken the last one")
    func waitsForTheSocket() throws {
        let (directory, file, _) = try Self.file(3 * HTTPConnection.bodyChunkSize)
        var connection = HTTPConnection()
        guard case .respond = connection.received(HTTPConnectionTests.get) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        guard case .send(let head) = connection.responded(Self.response(file)) else { Issue.record("no head"); return }
        guard case .readBody(_, 0, let count) = connection.wrote(head.count) else { Issue.record("no first chunk asked"); return }
        let chunk = [UInt8](repeating: 7, count: count)
        guard case .send = connection.bodyRead(chunk) else { Issue.record("the chunk is not sent"); return }
        #expect(connection.wrote(0) == .wait)   // the socket is full
        #expect(connection.wantsWrite)
        guard case .send(let rest) = connection.writable() else { Issue.record("nothing resent"); return }
        #expect(rest.count == count)
        guard case .readBody(_, let offset, _) = connection.wrote(rest.count) else { Issue.record("no second chunk"); return }
        #expect(offset == UInt64(count))
        _ = directory
    }

    @Test("a file that ends before its length closes the connection, saying which file; HEAD asks for no chunk")
    func shortFileAndHead() throws {
        let (directory, file, _) = try Self.file(10_000)
        truncate(file.path, 4_000)
        var connection = HTTPConnection()
        guard case .respond = connection.received(HTTPConnectionTests.get) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        var reads: [Int] = []
        let (sent, last) = Self.serve(&connection, connection.responded(Self.response(file)), reads: &reads)
        #expect(last == .close(.bodyUnreadable(file.path)))
        #expect(String(decoding: sent, as: UTF8.self).contains("Content-Length: 10000\r\n"))
        #expect(HTTPCloseReason.bodyUnreadable(file.path).refusal(.standard)?.sentence.contains(file.path) == true)

        var head = HTTPConnection()
        guard case .respond = head.received(Array("HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8)) else {
            Issue.record("the whole request did not ask for a response"); return
        }
        reads = []
        let (headSent, headLast) = Self.serve(&head, head.responded(Self.response(file)), reads: &reads)
        #expect(reads.isEmpty && headLast == .wait)
        #expect(String(decoding: headSent, as: UTF8.self).hasSuffix("\r\n\r\n"))
        _ = directory
    }

    @Test("a link, a directory and a missing file are refused with the system's words")
    func refusals() throws {
        let directory = TemporaryDirectory("file-body-refusals")
        let link = directory.url.appendingPathComponent("link").path
        symlink("/etc/hostname", link)
        #expect(throws: HTTPFileBody.OpenFailure.self) { try HTTPFileBody(opening: link) }
        #expect(throws: HTTPFileBody.OpenFailure.self) { try HTTPFileBody(opening: directory.url.path) }
        do {
            _ = try HTTPFileBody(opening: directory.url.appendingPathComponent("none").path)
            Issue.record("a missing file opened")
        } catch {
            #expect(error.description.contains("No such file"))
        }
    }

    @Test("opened with unlinking, the name is gone and the bytes still read")
    func unlinking() throws {
        let (directory, file, bytes) = try Self.file(100)
        let again = try HTTPFileBody(opening: file.path, unlinking: true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        var chunk = [UInt8](repeating: 0, count: 100)
        #expect(chunk.withUnsafeMutableBytes { again.read(at: 0, into: $0) } == 100 && chunk == bytes)
        _ = directory
    }
}
