import App
import Foundation
import Testing

/// What every screen says when it loses its server, decided in one place and handed to the page.
@Suite struct ServerContactTests {
    @Test("the page is told the timing and both notices, each with a title, what to check and how old the screen is")
    func contactDocument() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ServerContact.json.utf8)) as? [String: Any])
        #expect(json["askEverySeconds"] as? Int == 2 && json["silenceSeconds"] as? Int == 5)
        #expect(ServerContact.askEverySeconds < ServerContact.silenceSeconds)
        for loss in ServerContact.Loss.allCases {
            let notice = try #require(json[loss.rawValue] as? [String: String])
            #expect(notice["title"] == ServerContact.title(loss) && notice["text"] == ServerContact.text(loss))
            #expect(notice["asOf"] == ServerContact.asOf(loss))
        }
    }

    @Test("a refused session is said as refused, with the way back in, never as a server that does not answer")
    func refusedIsNotSilent() {
        #expect(ServerContact.title(.notAnswering) == "The app's server is not answering")
        #expect(ServerContact.text(.notAnswering).contains("Is 'tunnelvision ui' still running?"))
        #expect(ServerContact.title(.sessionRefused) != ServerContact.title(.notAnswering))
        #expect(!ServerContact.title(.sessionRefused).contains("not answering"))
        #expect(ServerContact.text(.sessionRefused).contains("'tunnelvision ui link'"))
    }

    @Test("GET /api/contact is a route that takes no parameters")
    func route() {
        let request = HTTPRequest(method: "GET", target: "/api/contact", path: "/api/contact", query: [], body: [])
        #expect(WebAPIRoute.resolve(request, dataDirectory: "/d", now: Date()) == .success(.contact))
        let asked = HTTPRequest(method: "GET", target: "/api/contact?x=1", path: "/api/contact", query: [HTTPQueryItem("x", "1")], body: [])
        #expect(WebAPIRoute.resolve(asked, dataDirectory: "/d", now: Date()).map { _ in true } != .success(true))
    }
}
