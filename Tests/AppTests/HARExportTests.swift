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
}
