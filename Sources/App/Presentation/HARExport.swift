import Foundation
import Shared

/// The requests and responses of inspected connections as HAR 1.2 (the HTTP Archive format of
/// browsers' developer tools and proxies): one entry per request read from decrypted content,
/// HTTP/1.1 and HTTP/2 alike, bodies decoded as the Inspector shows them. Only what was kept and
/// read is written; timings are not measured per request here, so each entry carries its
/// connection's first moment and zero timings, and says so in its comment.
package enum HARExport {
    /// The file's first bytes, as `header` writes them.
    package static let signature = #"{"log":{"version":"1.2","creator":{"name":"TunnelVision""#

    package static let comment = "decrypted content of connections inspected with your local CA, as TunnelVision kept it; "
        + "times are each connection's first packet, not measured per request"

    package static func header(_ out: inout JSONWriter) {
        out.beginObject()
        out.beginObject("log")
        out.string("version", "1.2")
        out.beginObject("creator")
        out.string("name", "TunnelVision")
        out.string("version", ProductVersion.current)
        out.endObject()
        out.string("comment", comment)
        out.beginArray("entries")
    }

    package static func trailer(_ out: inout JSONWriter) {
        out.endArray()
        out.endObject()
        out.endObject()
        out.lineBreak()
    }

    /// An entry for each exchange of `content` that has its request; how many were written.
    @discardableResult
    package static func entries(of flow: HistoryFlow, _ content: DecryptedContent, to out: inout JSONWriter) -> Int {
        guard let exchanges = content.application.exchanges else { return 0 }
        var written = 0
        for exchange in exchanges {
            guard let request = exchange.request else { continue }
            out.newline()
            out.beginObject()
            out.string("startedDateTime", UTCTimestamp.iso8601(flow.stored.firstSeen))
            out.number("time", 0)
            writeRequest(request, url: url(of: request, flow: flow), to: &out)
            writeResponse(exchange.response, to: &out)
            out.beginObject("cache")
            out.endObject()
            out.beginObject("timings")
            out.number("send", 0)
            out.number("wait", 0)
            out.number("receive", 0)
            out.endObject()
            if let remote = flow.endpoints?.remote { out.string("serverIPAddress", "\(remote.address)") }
            out.string("connection", "\(flow.stored.id)")
            let stream = exchange.stream.map { ", stream \($0)" } ?? ""
            out.string("comment", "TunnelVision connection \(flow.stored.id)\(stream)"
                + (exchange.response == nil ? "; \(content.responseMissing)" : ""))
            out.endObject()
            written += 1
        }
        return written
    }

    /// The request's URL: HTTP/2's :scheme, :authority and :path; HTTP/1.1's target on its Host
    /// (or the connection's name), over https — inspection only ever reads TLS.
    static func url(of request: DecryptedHTTPMessage, flow: HistoryFlow) -> String {
        guard case let .request(_, target, _) = request.start else { return "" }
        if target.hasPrefix("http://") || target.hasPrefix("https://") { return target }
        let scheme = request.field(":scheme") ?? "https"
        let authority = request.field(":authority") ?? request.field("Host") ?? flow.displayHost
            ?? (flow.endpoints?.remote ?? flow.stored.key.endpointB).address.description
        return "\(scheme)://\(authority)\(target.hasPrefix("/") ? target : "/" + target)"
    }

    static func writeRequest(_ request: DecryptedHTTPMessage, url: String, to out: inout JSONWriter) {
        out.beginObject("request")
        out.string("method", request.method ?? "")
        out.string("url", url)
        out.string("httpVersion", version(request))
        writeFields(request.fields, "headers", to: &out)
        out.beginArray("cookies")
        out.endArray()
        out.beginArray("queryString")
        for (name, value) in query(of: url) {
            out.beginObject()
            out.string("name", name)
            out.string("value", value)
            out.endObject()
        }
        out.endArray()
        if !request.body.bytes.isEmpty {
            let shown = DecryptedBodyPresentation(request.body, of: request).shownBytes(of: request.body)
            out.beginObject("postData")
            out.string("mimeType", request.field("Content-Type") ?? "")
            writeText(shown, to: &out)
            out.endObject()
        }
        out.number("headersSize", -1)
        out.number("bodySize", request.body.carriedLength ?? -1)
        out.endObject()
    }

    static func writeResponse(_ response: DecryptedHTTPMessage?, to out: inout JSONWriter) {
        out.beginObject("response")
        out.number("status", response?.status ?? 0)
        if case let .response(_, _, reason)? = response?.start { out.string("statusText", reason) } else { out.string("statusText", "") }
        out.string("httpVersion", response.map(version) ?? "")
        writeFields(response?.fields ?? [], "headers", to: &out)
        out.beginArray("cookies")
        out.endArray()
        out.beginObject("content")
        if let response {
            let presentation = DecryptedBodyPresentation(response.body, of: response)
            let shown = presentation.shownBytes(of: response.body)
            out.number("size", shown.count)
            if shown.count != response.body.bytes.count { out.number("compression", shown.count - response.body.bytes.count) }
            out.string("mimeType", response.field("Content-Type") ?? "")
            if !shown.isEmpty { writeText(shown, to: &out) }
            out.string("comment", response.body.isComplete ? nil : response.body.summary(presentation))
        } else {
            out.number("size", 0)
            out.string("mimeType", "")
        }
        out.endObject()
        out.string("redirectURL", response?.field("Location") ?? "")
        out.number("headersSize", -1)
        out.number("bodySize", response.map { $0.body.carriedLength ?? -1 } ?? 0)
        out.endObject()
    }

    /// A body as HAR carries it: `"text"` when it is UTF-8, else base64 with `"encoding"` saying
    /// so (HAR 1.2 names it for content; readers take it on postData too), never a lossy text.
    static func writeText(_ bytes: Data, to out: inout JSONWriter) {
        if let text = String(validating: bytes, as: UTF8.self) {
            out.string("text", text)
        } else {
            out.string("text", bytes.base64EncodedString())
            out.string("encoding", "base64")
        }
    }

    static func writeFields(_ fields: [HTTPField], _ key: StaticString, to out: inout JSONWriter) {
        out.beginArray(key)
        for field in fields {
            out.beginObject()
            out.string("name", field.name)
            out.string("value", field.value)
            out.endObject()
        }
        out.endArray()
    }

    /// "HTTP/1.1", and HTTP/2 as HAR readers expect it: "HTTP/2.0".
    static func version(_ message: DecryptedHTTPMessage) -> String {
        let version: String = switch message.start {
        case let .request(_, _, version): version
        case let .response(version, _, _): version
        }
        return version == HTTP2Conversation.version ? "HTTP/2.0" : version
    }

    /// The query's name=value pairs, percent-decoded as the web server decodes its own; a query
    /// whose escapes do not decode is left in the URL alone.
    static func query(of url: String) -> [(String, String)] {
        guard let mark = url.firstIndex(of: "?"), let split = try? HTTPTargetDecoding.split(String(url[mark...])) else { return [] }
        return split.query.map { ($0.name, $0.value) }
    }
}
