import Foundation

/// What a running server answers `tunnelvision ui link` over the data directory's channel: one
/// line, either a new address (the announcement's JSON) or why none was made (`{"error": …}`).
package enum WebLinkReply: Sendable, Equatable {
    case address(WebUIAnnouncement)
    case refused(String)

    package var line: String {
        switch self {
        case .address(let announcement): announcement.json
        case .refused(let sentence): "{\"error\": \(WebRefusalResponse.jsonString(sentence))}"
        }
    }

    /// The reply in `line`; nil when it is neither (a channel that is not a server's).
    package init?(line: String) {
        if let announcement = WebUIAnnouncement(json: line, lifetime: nil) {
            self = .address(announcement)
        } else if let error = Self.error(in: line) {
            self = .refused(error)
        } else {
            return nil
        }
    }

    private static func error(in line: String) -> String? {
        struct Refusal: Decodable { let error: String }
        return (try? JSONDecoder().decode(Refusal.self, from: Data(line.utf8)))?.error
    }
}
