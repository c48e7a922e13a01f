import Foundation
import Testing
import TestSupport

/// What `scripts/package` puts beside the binary, made from the help by packaging/from_help.py:
/// the man page, read by man(1) with its warnings on, and the bash completion, asked as bash asks
/// it. (The package itself — the release build, dpkg-deb and lintian — is `scripts/package`'s.)
@Suite("The man page and completion made from the help")
struct PackagingTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func make(_ kind: String, _ out: URL) throws {
        let made = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                        [repository.appendingPathComponent("packaging/from_help.py").path, kind,
                                         try BuiltProduct.url("tunnelvision").path, out.path])
        #expect(made.status == 0, "\(made.err)")
    }

    @Test("the man page renders without one warning and holds each command's own help")
    func manPage() throws {
        let directory = TemporaryDirectory("tv-man")
        let page = directory.url.appendingPathComponent("tunnelvision.1")
        try Self.make("man", page)
        let rendered = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["LC_ALL=C.UTF-8", "MANWIDTH=100", "man", "--warnings", "-E", "UTF-8", "-l", page.path])
        #expect(rendered.status == 0 && rendered.err.isEmpty, "\(rendered.err)")
        for command in ["up", "status", "down", "run", "flows", "analyze"] {
            let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", command]).out
            let firstLine = try #require(help.split(separator: "\n").first)
            #expect(rendered.out.contains(firstLine.trimmingCharacters(in: .whitespaces)), "\(command)'s synopsis is not on the page")
        }
    }

    @Test("the completion offers the commands, then each command's own options")
    func completion() throws {
        let directory = TemporaryDirectory("tv-completion")
        let script = directory.url.appendingPathComponent("tunnelvision")
        try Self.make("completion", script)
        func complete(_ words: [String]) throws -> [String] {
            let asked = try BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"), ["-c", """
                source '\(script.path)'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _tunnelvision; printf '%s\\n' "${COMPREPLY[@]}"
                """])
            return asked.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["tunnelvision", "u"]).sorted() == ["ui", "up"])
        #expect(try complete(["tunnelvision", "st"]).sorted() == ["stats", "status", "storage"])
        #expect(try complete(["tunnelvision", "up", "--"]).contains("--netns"))
        #expect(try complete(["tunnelvision", "up", "--p"]) == ["--pid"])
        #expect(try complete(["tunnelvision", "status", "--"]).sorted() == ["--data-dir", "--json"])
    }
}
