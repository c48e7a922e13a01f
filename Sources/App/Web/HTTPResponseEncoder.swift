/// A response as bytes on the wire (RFC 9112 § 4, § 6): the status line, the responder's
/// fields, then the framing this server decides — Content-Length for a body, `Connection` for
/// what happens after. An event stream has no length: its body runs until the connection closes
/// (§ 6.3 rule 8), so it always says `Connection: close`.
public enum HTTPResponseEncoder {
    /// The framing fields the encoder owns; a responder's copies of them are dropped.
    static let framingFields = ["Content-Length", "Transfer-Encoding", "Connection"]

    /// - Parameters:
    ///   - keepAlive: whether the connection serves another request after this one.
    ///   - http10: the request was HTTP/1.0, which keeps a connection only when told so.
    ///   - headOnly: a HEAD request: the same fields, no body.
    public static func encode(_ response: HTTPResponse, keepAlive: Bool, http10: Bool = false,
                              headOnly: Bool = false) -> [UInt8] {
        let headers = response.headers
        var fields = headers.fields.filter { field in !framingFields.contains { field.name.caseInsensitiveEquals($0) } }
        var body: [UInt8] = []
        switch response.body {
        case .bytes(let bytes):
            fields.append(("Content-Length", String(bytes.count)))
            if !headOnly { body = bytes }
            if keepAlive {
                if http10 { fields.append(("Connection", "keep-alive")) }
            } else {
                fields.append(("Connection", "close"))
            }
        case .eventStream:
            if headers["Content-Type"] == nil { fields.append(("Content-Type", "text/event-stream")) }
            fields.append(("Connection", "close"))
        }
        var text = "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n"
        for (name, value) in fields {
            // A line break in a value would end the field and let the rest forge another.
            text += "\(name): \(value.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" })\r\n"
        }
        text += "\r\n"
        return Array(text.utf8) + body
    }
}
