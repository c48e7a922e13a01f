/// The answer that carries a refusal's sentence: JSON in the API's error form
/// (`{"error": "…"}`) under /api/, a short page a person can read elsewhere, plain text when the
/// request could not even be read.
package enum WebRefusalResponse {
    package enum Form: Sendable { case json, page, text }

    package static func form(forPath path: String?) -> Form {
        guard let path else { return .text }
        return WebRouter.isAPI(path) ? .json : .page
    }

    package static func make(_ status: HTTPStatus, _ sentence: String, form: Form) -> HTTPResponse {
        let (type, body): (String, String) = switch form {
        case .json:
            ("application/json", "{\"error\": \(jsonString(sentence))}\n")
        case .page:
            ("text/html; charset=utf-8", """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>TunnelVision — \(status.code) \(html(status.reason))</title></head>
            <body><main><h1>\(html(status.reason))</h1><p>\(html(capitalized(sentence))).</p></main></body></html>

            """)
        case .text:
            ("text/plain; charset=utf-8", sentence + "\n")
        }
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", type)]), body: .bytes(Array(body.utf8)))
    }

    /// A JSON string literal (RFC 8259 § 7).
    static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    static func html(_ text: String) -> String { HTMLText.escaped(text) }

    private static func capitalized(_ sentence: String) -> String {
        sentence.prefix(1).uppercased() + sentence.dropFirst()
    }
}
