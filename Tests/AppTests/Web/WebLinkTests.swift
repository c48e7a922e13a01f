import Testing
@testable import App

/// `tunnelvision ui link`'s pure parts: who may ask, the line the server answers, and what the
/// announcement says of the key.
@Suite("ui link")
struct WebLinkTests {
    @Test("the data directory's owner, the user serving it and root may ask; anyone else is refused, told who may")
    func permission() {
        #expect(WebLinkPermission.decide(peer: 1000, directoryOwner: 1000, server: 0) == .allowed)
        #expect(WebLinkPermission.decide(peer: 0, directoryOwner: 1000, server: 1000) == .allowed)
        #expect(WebLinkPermission.decide(peer: 1001, directoryOwner: 1000, server: 1001) == .allowed)
        guard case .refused(let sentence) = WebLinkPermission.decide(peer: 1002, directoryOwner: 1000, server: 0) else {
            Issue.record("another user was allowed")
            return
        }
        #expect(sentence.contains("user 1000") && sentence.contains("you are user 1002"))
        #expect(WebLinkPermission.decide(peer: 1002, directoryOwner: nil, server: 0) != .allowed)
    }

    @Test("the server's line is read back as it was written: an address, or a refusal; anything else is neither")
    func reply() {
        let address = WebUIAnnouncement(url: "http://127.0.0.1:9/?key=ab", listen: "127.0.0.1:9", dataDirectory: "/d \"q\"",
                                        keyLifetime: .seconds(300), lifetime: nil)
        #expect(WebLinkReply(line: WebLinkReply.address(address).line) == .address(address))
        #expect(WebLinkReply(line: WebLinkReply.refused("no \"you\"").line) == .refused("no \"you\""))
        #expect(WebLinkReply(line: "") == nil)
        #expect(WebLinkReply(line: "{\"url\": 1}") == nil)
        #expect(WebLinkReply(line: "HTTP/1.1 200 OK") == nil)
    }

    @Test("the announcement says how long the key waits and that it works once; its JSON carries the lifetime in seconds")
    func announcement() {
        let started = WebUIAnnouncement(url: "http://127.0.0.1:9/?key=ab", listen: "127.0.0.1:9", dataDirectory: "/d")
        #expect(started.text == "TunnelVision is at http://127.0.0.1:9/?key=ab (open it in a browser on this machine within "
                + "5 minutes; its key works once, and 'tunnelvision ui link' prints another; Ctrl-C stops it)")
        #expect(started.json == "{\"url\": \"http://127.0.0.1:9/?key=ab\", \"listen\": \"127.0.0.1:9\", "
                + "\"dataDirectory\": \"/d\", \"keyLifetimeSeconds\": 300}")
        let run = WebUIAnnouncement(url: "u", listen: "l", dataDirectory: "/d", lifetime: .withTheRun)
        #expect(run.text.hasSuffix("it stops when the run ends)"))
        let link = WebUIAnnouncement(url: "u", listen: "l", dataDirectory: "/d", keyLifetime: .seconds(60), lifetime: nil)
        #expect(link.text == "TunnelVision is at u (open it in a browser on this machine within 1 minute; its key works once)")
        var limits = WebServerLimits.standard
        limits.keyLifetime = .seconds(90)
        #expect(limits.keyLifetimeText == "90 seconds" && WebServerLimits.standard.keyLifetimeText == "5 minutes")
    }
}
