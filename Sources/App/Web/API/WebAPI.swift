import Foundation

/// The web app's JSON API. A placeholder until helper B's lands: every request is answered 404
/// `{"error": "not built yet"}`, so the server and `tunnelvision ui` build and run without it.
public actor WebAPI: WebResponder {
    public let dataDirectory: URL

    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        WebRefusalResponse.make(.notFound, "not built yet", form: .json)
    }
}
