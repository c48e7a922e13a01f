/// A response as bytes on the wire (RFC 9112 § 4, § 6): the status line, the responder's
/// fields, then the framing this server decides — Content-Length for a body, `Connection` for
/// what happens after. An event stream has no length: its body runs until the connection closes
/// (§ 6.3 rule 8), so it always says `Connection: close`.
package enum HTTPResponseEncoder {
    /// The framing fields the encoder owns; a responder's copies of them are dropped.
    static let framingFields = ["Content-Length", "Transfer-Encoding", "Connection"]

    /// The head and, for a body in memory, the body after it.
    /// - Parameters:
    ///   - keepAlive: whether the connection serves another request after this one.
    ///   - http10: the request was HTTP/1.0, which keeps a connection only when told so.
    ///   - headOnly: a HEAD request: the same fields, no body.
    package static func encode(_ response: HTTPResponse, keepAlive: Bool, http10: Bool = false,
                              headOnly: Bool = false) -> [UInt8] {
        let head = head(response, keepAlive: keepAlive, http10: http10)
        guard !headOnly, case .bytes(let body) = response.body else { return head }
        return head + body
    }

    /// The status line and the fields, through the blank line: what goes out before any body (a
    /// file's is sent after it, chunk by chunk).
    package static func head(_ response: HTTPResponse, keepAlive: Bool, http10: Bool = false) -> [UInt8] {
        let headers = response.headers
        var fields = headers.fields.filter { field in !framingFields.contains { field.name.caseInsensitiveEquals($0) } }
        let length: UInt64? = switch response.body {
        case .bytes(let bytes): UInt64(bytes.count)
        case .file(let file): file.length
        case .eventStream: nil
        }
        if let length {
            fields.append(("Content-Length", String(length)))
            if keepAlive {
                if http10 { fields.append(("Connection", "keep-alive")) }
            } else {
                fields.append(("Connection", "close"))
            }
        } else {
            if headers["Content-Type"] == nil { fields.append(("Content-Type", "text/event-stream")) }
            fields.append(("Connection", "close"))
        }
        var text = "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n"
        for (name, value) in fields {
            // A line break in a value would end the field and let the rest forge another.
            text += "\(name): \(value.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" })\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}
