import Foundation
import Testing

/// The site's own files, as the build copies them: read from the source folder.
@Suite("The web app's files")
struct WebSiteFilesTests {
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/AppLinux/Web/Site").standardizedFileURL

    @Test("index.html preloads every script module, so the page does not fetch its imports in rounds")
    func everyModuleIsPreloaded() throws {
        let page = try String(contentsOf: Self.site.appendingPathComponent("index.html"), encoding: .utf8)
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.site.path).filter { $0.hasSuffix(".js") }
        #expect(modules.count > 5, "the site's modules: \(modules)")
        for module in modules {
            #expect(page.contains("<link rel=\"modulepreload\" href=\"\(module)\">"), "\(module) is not preloaded")
        }
    }

    @Test("no page or script carries inline script, inline handlers or style attributes (the CSP refuses them)")
    func nothingInline() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.site.path).filter { $0.hasSuffix(".html") }
        for file in files {
            let text = try String(contentsOf: Self.site.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains(" style=\"") && !text.contains(" onclick=") && !text.contains(" onload="), "\(file)")
            #expect(text.components(separatedBy: "<script").dropFirst().allSatisfy { $0.contains("src=") }, "\(file): inline script")
        }
    }
}
