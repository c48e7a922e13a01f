import Foundation
import Testing

/// The site's own files, as the build copies them: read from the source folder.
@Suite("The web app's files")
struct WebSiteFilesTests {
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/AppLinux/Web/Site").standardizedFileURL

    /// The modules `file` imports statically (`import … from "./x.js"`), and theirs, `file` included.
    static func importGraph(from file: String) throws -> Set<String> {
        var found: Set<String> = []
        var waiting = [file]
        let pattern = try Regex(#"^import [^;]* from "\./([a-z-]+\.js)";"#).anchorsMatchLineEndings()
        while let next = waiting.popLast() {
            guard found.insert(next).inserted else { continue }
            let text = try String(contentsOf: site.appendingPathComponent(next), encoding: .utf8)
            waiting += text.matches(of: pattern).map { String($0.output[1].substring ?? "") }
        }
        return found
    }

    @Test("index.html preloads exactly the first screen's module graph (app.js's and the Timeline's), so it does not load in rounds nor wait for other screens")
    func firstScreenIsPreloaded() throws {
        let page = try String(contentsOf: Self.site.appendingPathComponent("index.html"), encoding: .utf8)
        let preloaded = Set(page.matches(of: #/<link rel="modulepreload" href="([a-z]+\.js)">/#).map { String($0.output.1) })
        let graph = try Self.importGraph(from: "app.js").union(try Self.importGraph(from: "timeline.js"))
        #expect(graph.count > 5 && graph.contains("scrubbar.js"), "the Timeline's graph: \(graph.sorted())")
        #expect(preloaded == graph, "preloaded \(preloaded.sorted()), the graph \(graph.sorted())")
    }

    @Test("every module is reached: app.js imports it, or a screen app.js loads does")
    func everyModuleIsReached() throws {
        let app = try String(contentsOf: Self.site.appendingPathComponent("app.js"), encoding: .utf8)
        let screens = app.matches(of: #/import\("\./([a-z]+\.js)"\)/#).map { String($0.output.1) }
        #expect(screens.count >= 6, "the screens app.js loads: \(screens)")
        var reached = try Self.importGraph(from: "app.js")
        for screen in screens { reached.formUnion(try Self.importGraph(from: screen)) }
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: Self.site.path).filter { $0.hasSuffix(".js") })
        #expect(modules.subtracting(reached).isEmpty, "never loaded: \(modules.subtracting(reached).sorted())")
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
