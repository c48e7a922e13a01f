import App
import Foundation
import Shared
import Testing
import TestSupport

/// HAR entries of one inspected connection, read back by Python's json as a HAR reader would.
@Suite struct HARExportTests {
    typealias C = DecryptedChunks

    @Test("a binary request body goes as base64 and says so, never as lossy text; the query is decoded as the web server decodes")
    func binaryBodyAndQuery() async throws {
        let fixture = try ExportHistoryFixture()
        let flow = try #require(try await fixture.write([ExportHistoryFixture.record(port: 40_100, lastSeen: 2_000_000,
                                                                                   sni: "api.test", status: .inspected)]).first)
        let body = Data([0x00, 0xff, 0xfe, 0x41])
        let request = Data("POST /upload?name=a%20b&flag HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/octet-stream\r\nContent-Length: 4\r\n\r\n".utf8) + body
        let content = DecryptedContent([C.chunk(.outbound, request),
                                        C.chunk(.inbound, "HTTP/1.1 204 No Content\r\n\r\n", at: 10)], connectionStart: C.start)
        var out = JSONWriter()
        HARExport.header(&out)
        #expect(HARExport.entries(of: flow, content, to: &out) == 1)
        HARExport.trailer(&out)
        let document = String(decoding: out.writer.bytes, as: UTF8.self)
        #expect(document.hasPrefix(HARExport.signature))
        let entry = try PythonJSON.value(document, "log.entries.0.request")
        #expect(entry.contains(#""url": "https://api.test/upload?name=a%20b&flag""#), "\(entry)")
        #expect(try PythonJSON.value(document, "log.entries.0.request.queryString")
                == #"[{"name": "name", "value": "a b"}, {"name": "flag", "value": ""}]"#)
        #expect(try PythonJSON.value(document, "log.entries.0.request.postData.text") == "\"\(body.base64EncodedString())\"")
        #expect(try PythonJSON.value(document, "log.entries.0.request.postData.encoding") == "\"base64\"")
        #expect(try PythonJSON.value(document, "log.entries.0.response.status") == "204")
        _ = fixture
    }

    @Test("a body the budget cut says its whole length in bodySize and what was kept in its content; a body cut by the connection's end says -1")
    func cutBodies() async throws {
        let fixture = try ExportHistoryFixture()
        let flow = try #require(try await fixture.write([ExportHistoryFixture.record(port: 40_101, lastSeen: 2_000_000,
                                                                                   sni: "api.test", status: .inspected)]).first)
        let request = "GET /big HTTP/1.1\r\nHost: api.test\r\n\r\n"
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n"
        let document = { (carried: Int?) throws -> String in
            let content = DecryptedContent([C.chunk(.outbound, request),
                                            C.chunk(.inbound, head + "hello", carried: carried.map { head.utf8.count + $0 }, at: 10)],
                                           connectionStart: C.start)
            var out = JSONWriter()
            HARExport.header(&out)
            #expect(HARExport.entries(of: flow, content, to: &out) == 1)
            HARExport.trailer(&out)
            return String(decoding: out.writer.bytes, as: UTF8.self)
        }
        let cut = try document(5_000)
        #expect(try PythonJSON.value(cut, "log.entries.0.response.bodySize") == "5000")
        #expect(try PythonJSON.value(cut, "log.entries.0.response.content.size") == "5")
        #expect(try PythonJSON.value(cut, "log.entries.0.response.content.comment").hasPrefix("\"5 bytes kept of 5 000 "))
        let ended = try document(nil)
        #expect(try PythonJSON.value(ended, "log.entries.0.response.bodySize") == "-1")
        _ = fixture
    }
}
