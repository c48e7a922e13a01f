import Shared
import Testing
@testable import App

/// The page a browser is opened on, and where it may be written: the user's own runtime
/// directory when it is fit, else a fresh private one.
@Suite("BrowserLaunchPage")
struct BrowserLaunchPageTests {
    @Test("the page sends the browser on to the address at once, with a link, no script and no Referer")
    func page() {
        let url = "http://127.0.0.1:8123/?key=" + String(repeating: "ab", count: 32)
        let html = BrowserLaunchPage.html(url: url)
        #expect(html.contains("<meta http-equiv=\"refresh\" content=\"0; url=\(url)\">"))
        #expect(html.contains("<a href=\"\(url)\">"))
        #expect(html.contains("<meta name=\"referrer\" content=\"no-referrer\">"))
        #expect(!html.contains("<script"))
        #expect(BrowserLaunchPage.html(url: "http://h/?a=\"><script>").contains("url=http://h/?a=&quot;&gt;&lt;script&gt;\""))
    }

    @Test("file names differ each time and say what they are; none holds anything of the key")
    func names() {
        var random = SystemRandomNumberGenerator()
        let one = BrowserLaunchPage.fileName(using: &random), two = BrowserLaunchPage.fileName(using: &random)
        #expect(one != two)
        #expect(one.hasPrefix("tunnelvision-open-") && one.hasSuffix(".html") && !one.contains("/"))
    }

    @Test("XDG_RUNTIME_DIR is used only when it is the user's own directory, closed to others, and not a link")
    func place() {
        let mine = PathStatus(kind: .directory, mode: 0o700, owner: 1000)
        func place(_ runtime: String?, _ status: PathStatus?) -> BrowserLaunchPage.Place {
            BrowserLaunchPage.place(environment: runtime.map { ["XDG_RUNTIME_DIR": $0] } ?? [:], status: { _ in status }, user: 1000)
        }
        #expect(place("/run/user/1000", mine) == .runtimeDirectory("/run/user/1000"))
        #expect(place(nil, mine) == .freshDirectory)
        #expect(place("", mine) == .freshDirectory)
        #expect(place("run/user/1000", mine) == .freshDirectory, "a relative path is not a runtime directory")
        #expect(place("/run/user/1000", nil) == .freshDirectory, "absent")
        #expect(place("/tmp/x", PathStatus(kind: .symbolicLink, mode: 0o777, owner: 1000)) == .freshDirectory)
        #expect(place("/tmp/x", PathStatus(kind: .directory, mode: 0o700, owner: 1001)) == .freshDirectory, "another user's")
        #expect(place("/tmp", PathStatus(kind: .directory, mode: 0o1777, owner: 0)) == .freshDirectory)
        #expect(place("/run/user/1000", PathStatus(kind: .directory, mode: 0o750, owner: 1000)) == .freshDirectory)
        #expect(place("/run/user/1000", PathStatus(kind: .regularFile, mode: 0o600, owner: 1000)) == .freshDirectory)
    }
}
