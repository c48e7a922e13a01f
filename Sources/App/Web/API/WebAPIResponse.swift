import Shared

/// The shapes of the web API's answers: JSON text, `{"error": …}` with its status, a download,
/// the live feed's stream.
enum WebAPIResponse {
    static let jsonType = "application/json; charset=utf-8"

    static func json(exactly text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", jsonType)
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }

    /// `{"error": message}`: the sentence the command prints, without "tunnelvision: ". When one
    /// field's value was refused, also `"parameter"` (its name, as the query spells it) and
    /// `"problem"` (what is wrong with the value, the sentence a screen shows beside the field).
    static func error(_ status: HTTPStatus, _ message: String, parameter: QuestionFailure.RefusedParameter? = nil) -> HTTPResponse {
        var out = JSONWriter()
        out.beginObject()
        out.string("error", message)
        if let parameter {
            out.string("parameter", parameter.name)
            out.string("problem", parameter.problem)
        }
        out.endObject()
        return json(exactly: out.writer.string + "\n", status: status)
    }

    static func failure(_ failure: QuestionFailure) -> HTTPResponse {
        error(status(of: failure.kind), failure.message, parameter: failure.parameter)
    }

    /// 400 a bad parameter, 404 not found, 409 no tunnel where one is needed or a deletion not
    /// agreed to, 500 a failure.
    static func status(of kind: QuestionFailure.Kind) -> HTTPStatus {
        switch kind {
        case .badParameter: .badRequest
        case .notFound: .notFound
        case .noTunnel, .needsConfirmation: .conflict
        case .failed: .internalServerError
        }
    }

    static func download(_ bytes: [UInt8], type: String, name: String) -> HTTPResponse {
        download(.bytes(bytes), type: type, name: name)
    }

    /// A file sent from disk a chunk at a time.
    static func download(_ file: HTTPFileBody, type: String, name: String) -> HTTPResponse {
        download(.file(file), type: type, name: name)
    }

    private static func download(_ body: HTTPResponse.Body, type: String, name: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", type)
        headers.add("Content-Disposition", "attachment; filename=\"\(name)\"")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    static func contentType(of format: FlowCaptureFormat) -> String {
        switch format {
        case .pcap: "application/vnd.tcpdump.pcap"
        case .pcapng: "application/x-pcapng"
        }
    }

    static let eventStream: HTTPResponse = {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/event-stream")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .ok, headers: headers, body: .eventStream)
    }()
}
