import Foundation

/// One HTTP message read back from an inspected connection's kept bytes, whichever version
/// carried it: HTTP/1.1 (`HTTP1Reader`, RFC 9112) or HTTP/2 (`HTTP2Conversation`, RFC 9113, its
/// pseudo-header fields among the fields as sent). A reader of what was already recorded, not a
/// server: "the bytes ended" is an answer, not a wait.
package struct DecryptedHTTPMessage: Sendable, Equatable {
    package enum StartLine: Sendable, Equatable {
        case request(method: String, target: String, version: String)
        case response(version: String, status: Int, reason: String)
    }

    package let start: StartLine
    /// In the order sent, names as sent.
    package let fields: [HTTPField]
    package let body: DecryptedHTTPBody
    /// Fields sent after the body: HTTP/2 trailers (RFC 9113 §8.1). HTTP/1.1's chunked trailers
    /// are read past, not kept.
    package var trailers: [HTTPField] = []

    /// The start line as sent: "GET / HTTP/1.1", "HTTP/1.1 200 OK".
    package var startLine: String {
        switch start {
        case let .request(method, target, version): "\(method) \(target) \(version)"
        case let .response(version, status, reason): reason.isEmpty ? "\(version) \(status)" : "\(version) \(status) \(reason)"
        }
    }

    /// The first field named `name` (case-insensitive, §5.1), its value.
    package func field(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    package var method: String? { if case let .request(method, _, _) = start { method } else { nil } }
    package var status: Int? { if case let .response(_, status, _) = start { status } else { nil } }

    static let maxLineBytes = 64 * 1024
    static let maxFields = 256
}

package struct HTTPField: Sendable, Equatable {
    package let name: String
    package let value: String
}
