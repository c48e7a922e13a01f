#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Foundation
import Testing
import TestSupport

@Suite("WebSite", .serialized)
struct WebSiteTests {
    /// A site folder with an index, a script, a secret beside it, and links that point out.
    static func makeSite() throws -> (TemporaryDirectory, WebSite) {
        let folder = TemporaryDirectory("web-site")
        let site = folder.url.appendingPathComponent("Site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>t</title>".utf8).write(to: site.appendingPathComponent("index.html"))
        try Data("console.log(1)".utf8).write(to: site.appendingPathComponent("js/app.js"))
        try Data("secret".utf8).write(to: folder.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("link.txt").path,
                                                   withDestinationPath: folder.url.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("up").path, withDestinationPath: folder.url.path)
        return (folder, try WebSite(directory: site.path))
    }

    @Test("the site's files are served with their types; .., encoded .., a symlinked file and a symlinked folder are 404")
    func files() async throws {
        let (folder, site) = try Self.makeSite()
        _ = folder
        let served = try ServedForTest(responder: WebRouter(api: EchoResponder(), site: site))
        let cookie = try await served.cookie()
        func get(_ path: String) async throws -> String {
            try await ServedForTest.curl(["-i", "--path-as-is", "-H", "Cookie: \(cookie)", served.base + path]).out
        }
        let index = try await get("/")
        #expect(index.hasPrefix("HTTP/1.1 200 OK"))
        #expect(index.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(index.hasSuffix("<!doctype html><title>t</title>"))
        #expect(try await get("/js/app.js").contains("Content-Type: text/javascript; charset=utf-8\r\n"))
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt", "/link.txt", "/up/secret.txt", "/js", "/missing.html"] {
            let answer = try await get(path)
            #expect(answer.hasPrefix("HTTP/1.1 404 Not Found"), "\(path): \(answer.prefix(30))")
            #expect(!answer.contains("secret\r") && !answer.hasSuffix("secret"), "\(path) leaked the file")
        }
        #expect(try await get("/api/x").hasSuffix("hello /api/x"), "/api/ goes to the API's responder")
    }

    @Test("a folder without index.html is refused with where it looked and what to do")
    func missing() {
        let folder = TemporaryDirectory("web-empty")
        #expect(throws: WebServerError.siteMissing(folder.url.path)) { try WebSite(directory: folder.url.path) }
        #expect(WebServerError.siteMissing("/x").description.contains("keep the TunnelVision_AppLinux.resources folder"))
    }
}
