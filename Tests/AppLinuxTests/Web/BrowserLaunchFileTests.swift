#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Foundation
import Shared
import Testing
import TestSupport

/// The page a browser is opened on, as a real file beside a real server: the user's alone, and
/// gone once its key is spent — used, expired, or the server stopped.
@Suite("BrowserLaunchFile", .serialized)
struct BrowserLaunchFileTests {
    /// A private directory standing in for $XDG_RUNTIME_DIR.
    static func runtimeDirectory(mode: mode_t = 0o700) -> TemporaryDirectory {
        let directory = TemporaryDirectory("runtime")
        chmod(directory.url.path, mode)
        return directory
    }

    /// The address the page sends the browser to.
    static func address(in path: String) throws -> String {
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(page.range(of: "content=\"0; url="))
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test("in $XDG_RUNTIME_DIR: a 0600 page sending the browser to a key of its own, removed once the browser used it")
    func runtime() async throws {
        let served = try ServedForTest()
        let runtime = Self.runtimeDirectory()
        let file = try BrowserLaunchFile.make(for: served.server, environment: ["XDG_RUNTIME_DIR": runtime.url.path])
        #expect(file.path.hasPrefix(runtime.url.path + "/tunnelvision-open-") && file.path.hasSuffix(".html"))
        let status = try #require(PathStatus.of(file.path))
        #expect(status.kind == .regularFile && status.mode == 0o600 && status.owner == geteuid())
        let url = try Self.address(in: file.path)
        #expect(url.hasPrefix(served.base + "/?key=") && url != served.server.url, "a key of its own")
        let login = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(login.out == "303")
        #expect(await eventually(within: .seconds(10)) { !FileManager.default.fileExists(atPath: file.path) }, "the page outlived its key")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime.url.path).isEmpty)
        let again = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(again.out == "401")
    }

    @Test("without a runtime directory (or with one open to others): a fresh 0700 directory, removed with the page when the server stops")
    func fresh() async throws {
        let served = try ServedForTest()
        let open = Self.runtimeDirectory(mode: 0o755)
        var made: [String] = []
        for environment in [[:], ["XDG_RUNTIME_DIR": open.url.path]] {
            let file = try BrowserLaunchFile.make(for: served.server, environment: environment)
            let directory = String(file.path[..<file.path.lastIndex(of: "/")!])
            #expect(directory != open.url.path && directory.hasPrefix(FileManager.default.temporaryDirectory.path + "/tunnelvision-open."))
            #expect(PathStatus.of(directory)?.mode == 0o700 && PathStatus.of(file.path)?.mode == 0o600)
            #expect(FileManager.default.fileExists(atPath: file.path))
            made.append(directory)
        }
        #expect(Set(made).count == 2, "each page has a directory of its own")
        served.server.stop()
        for directory in made {
            #expect(!FileManager.default.fileExists(atPath: directory), "\(directory) outlived the server")
        }
        #expect(throws: BrowserLaunchFile.Failure.self) {
            try BrowserLaunchFile.make(for: served.server, environment: ["XDG_RUNTIME_DIR": Self.runtimeDirectory().url.path])
        }
    }

    @Test("a page whose key expires unused is removed then, and its address is refused as expired")
    func expiry() async throws {
        var limits = WebServerLimits.standard
        limits.keyLifetime = .seconds(1)
        let served = try ServedForTest(limits: limits)
        let runtime = Self.runtimeDirectory()
        let file = try BrowserLaunchFile.make(for: served.server, environment: ["XDG_RUNTIME_DIR": runtime.url.path])
        let url = try Self.address(in: file.path)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(await eventually(within: .seconds(5)) { !FileManager.default.fileExists(atPath: file.path) })
        let late = try await ServedForTest.curl(["-i", url])
        #expect(late.out.hasPrefix("HTTP/1.1 401"))
        #expect(late.out.contains("has expired"))
        #expect(await served.log.eventually { $0.contains(" GET / 401 the key in the address has expired") })
    }
}
