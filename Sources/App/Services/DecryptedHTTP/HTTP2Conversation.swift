import Foundation
import Shared

/// The HTTP/2 requests and responses of one connection (RFC 9113 §8), read from each direction's
/// kept stream by `HTTP2Connection`: each stream an exchange — its request's header list and
/// content, its 1xx answers, its response and content, trailers on either side — in the order
/// the client opened them, each pushed stream right after the stream that promised it.
package struct HTTP2Conversation: Sendable, Equatable {
    package let exchanges: [DecryptedHTTPExchange]
    /// What the reading could not place, or what the connection said as a whole, in words.
    package let notes: [String]

    package static let version = "HTTP/2"

    package init(_ turns: DecryptedTurns) {
        let connection = HTTP2Connection(client: turns.kept(.outbound), server: turns.kept(.inbound))
        // A side is cut as a whole only where the budget kept no more frame headers.
        let clientCut = connection.notFollowedClientBytes > 0, serverCut = connection.notFollowedServerBytes > 0
        let exchange = { (stream: HTTP2Stream) in Self.exchange(stream, clientCut: clientCut, serverCut: serverCut) }
        var ordered: [DecryptedHTTPExchange] = []
        let pushed = Dictionary(grouping: connection.streams.filter { $0.promisedBy != nil }) { $0.promisedBy ?? 0 }
        var placed = Set<UInt32>()
        for stream in connection.streams where stream.promisedBy == nil {
            ordered.append(exchange(stream))
            for promise in pushed[stream.id] ?? [] {
                ordered.append(exchange(promise))
                placed.insert(promise.id)
            }
        }
        ordered += connection.streams.filter { $0.promisedBy != nil && !placed.contains($0.id) }.map(exchange)
        exchanges = ordered
        notes = Self.notes(connection)
    }

    static func exchange(_ stream: HTTP2Stream, clientCut: Bool, serverCut: Bool) -> DecryptedHTTPExchange {
        var interim: [DecryptedHTTPMessage] = []
        var response: DecryptedHTTPMessage?
        var trailers: [HTTPField] = []
        for block in stream.server.headerBlocks {
            let fields = block.map(Self.field)
            let status = block.first { $0.name == ":status" }.flatMap { Int($0.value) }
            if response != nil {
                trailers += fields
            } else if let status, (100..<200).contains(status) {
                interim.append(DecryptedHTTPMessage(start: .response(version: version, status: status, reason: ""), fields: fields,
                                                    body: .empty))
            } else {
                response = DecryptedHTTPMessage(start: .response(version: version, status: status ?? 0, reason: ""), fields: fields,
                                                body: body(stream.server, cut: serverCut))
            }
        }
        response?.trailers = trailers
        var notes: [String] = []
        if let promising = stream.promisedBy {
            notes.append("pushed by the server with stream \(promising)'s response (PUSH_PROMISE): the request is the server's")
        }
        if let code = stream.client.reset { notes.append("the client reset the stream: \(HTTP2ErrorCode.text(code))") }
        if let code = stream.server.reset { notes.append("the server reset the stream: \(HTTP2ErrorCode.text(code))") }
        return DecryptedHTTPExchange(request: request(stream.client, cut: clientCut && stream.promisedBy == nil), interim: interim,
                                     response: response, stream: stream.id, promisedBy: stream.promisedBy, notes: notes)
    }

    /// The request: the first header block with the content; a later block is its trailers.
    static func request(_ half: HTTP2StreamHalf, cut: Bool) -> DecryptedHTTPMessage? {
        guard let head = half.headerBlocks.first else { return nil }
        let value = { (name: String) in head.first { $0.name == name }?.value }
        // §8.5: CONNECT names its target in :authority and has no :path.
        let target = value(":path") ?? value(":authority") ?? ""
        var message = DecryptedHTTPMessage(start: .request(method: value(":method") ?? "", target: target, version: version),
                                           fields: head.map(Self.field), body: body(half, cut: cut))
        message.trailers = half.headerBlocks.dropFirst().flatMap { $0.map(Self.field) }
        return message
    }

    /// The DATA frames' content; none when the stream ended with its headers. Cut by the budget
    /// in it (its frames' lengths then say what it carried), or after it when `cut`.
    static func body(_ half: HTTP2StreamHalf, cut: Bool) -> DecryptedHTTPBody {
        if half.dataFrames == 0 && half.ended { return .empty }
        var body = DecryptedHTTPBody(framing: .frames, bytes: Data(half.data), isComplete: half.ended && !half.dataCut,
                                     cutByBudget: half.dataCut || (cut && !half.ended))
        if half.dataCut {
            body.carried = half.dataLength
            body.carriedIsTotal = half.ended && !cut
        }
        return body
    }

    static func field(_ field: HPACKHeaderField) -> HTTPField { HTTPField(name: field.name, value: field.value) }

    static func notes(_ connection: HTTP2Connection) -> [String] {
        var notes: [String] = []
        for problem in connection.problems {
            notes.append("the \(side(problem.side))'s header blocks could not be read from here on: \(problem.reason)")
        }
        for goAway in connection.goAways {
            notes.append("the \(side(goAway.side)) closed the connection (GOAWAY): \(HTTP2ErrorCode.text(goAway.code)), "
                + "last stream \(goAway.lastStreamID)" + (goAway.debugData.isEmpty ? "" : ", saying \"\(goAway.debugData)\""))
        }
        for (side, bytes) in [(HTTP2Side.client, connection.notFollowedClientBytes), (.server, connection.notFollowedServerBytes)] where bytes > 0 {
            notes.append("the last \(FlowInspector.grouped(bytes)) bytes \(side == .client ? "sent" : "received") were not kept: "
                + "the budget for this connection ran out")
        }
        if connection.unreadClientBytes > 0 {
            notes.append("the last \(FlowInspector.grouped(connection.unreadClientBytes)) bytes sent begin a frame that did not come whole")
        }
        if connection.unreadServerBytes > 0 {
            notes.append("the last \(FlowInspector.grouped(connection.unreadServerBytes)) bytes received begin a frame that did not come whole")
        }
        if connection.malformedFrames > 0 {
            let count = connection.malformedFrames
            notes.append(count == 1 ? "1 DATA frame padded past its end was not read"
                                    : "\(FlowInspector.grouped(count)) DATA frames padded past their end were not read")
        }
        if connection.streamsNotKept > 0 {
            notes.append("\(FlowInspector.grouped(connection.streamsNotKept)) more streams are not shown: "
                + "at most \(FlowInspector.grouped(HTTP2Connection.maxStreams)) are read")
        }
        return notes
    }

    static func side(_ side: HTTP2Side) -> String { side == .client ? "client" : "server" }
}
