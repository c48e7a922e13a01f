import App
import Foundation
import FuzzSupport
import Shared

/// One input: a mode byte (bit 0 set: the client's bytes are given without the connection
/// preface; bit 1 set: a table size limit of 256 instead of 4 096), two bytes of the client's
/// length (big-endian, capped at what is there), the client's bytes, then the server's. The
/// connection reader and the HPACK decoder never trap; streams are unique, non-zero and in order,
/// no more than the bound; at most one problem is said per side; unread bytes are bytes that were
/// there; the decoder's table never outgrows its maximum, nor the maximum its limit. The server's
/// bytes are also decoded as a body of each content coding, bounded at 4 KiB: never more than that;
/// and the client's read as WebSocket frames (compressed when bit 2 is set): messages at offsets
/// inside the bytes, in order, no more than the bound. Both sides, cut into chunks as the mode
/// byte's `Chunking` says, also go through `PlaintextBudget` with small limits (its high nibble):
/// every byte fed is placed exactly once (kept, or in a gap, or owed at the end), no direction keeps
/// more than its limits; and what it kept reads back through the readers of kept bytes — HTTP/2's
/// gap-aware frames and the whole decrypted-content reading — without trapping; and the request
/// heads the search indexes are read from the same chunks, within their bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let mode = input.byte()
    let declared = Int(input.byte()) << 8 | Int(input.byte())
    let rest = Array(input.rest)
    let split = min(declared, rest.count)
    let client = (mode & 1 == 0 ? HTTP2Connection.preface : []) + rest[..<split]
    let server = Array(rest[split...])

    let connection = HTTP2Connection(client: client, server: server)
    let ids = connection.streams.map(\.id)
    invariant(!ids.contains(0) && ids == ids.sorted() && Set(ids).count == ids.count, "streams \(ids)")
    invariant(ids.count <= HTTP2Connection.maxStreams, "\(ids.count) streams kept")
    invariant(connection.unreadClientBytes <= client.count && connection.unreadServerBytes <= server.count, "unread past the end")
    invariant(connection.problems.filter { $0.side == .client }.count <= 1
              && connection.problems.filter { $0.side == .server }.count <= 1, "problems \(connection.problems)")

    var decoder = HPACKDecoder(tableSizeLimit: mode & 2 == 0 ? HPACKDecoder.defaultTableSize : 256)
    for block in [rest[..<split], rest[split...]] {
        _ = try? decoder.decode(block)
        invariant(decoder.tableSize <= decoder.maxTableSize && decoder.maxTableSize <= decoder.tableSizeLimit,
                  "table \(decoder.tableSize) of \(decoder.maxTableSize), limit \(decoder.tableSizeLimit)")
    }
    let webSocket = WebSocketStream(Array(rest[..<split]), compressed: mode & 4 != 0, contextTakeover: mode & 8 == 0)
    let offsets = webSocket.messages.map(\.offset)
    invariant(offsets.allSatisfy { $0 < split } && webSocket.unreadBytes <= split, "offsets \(offsets) of \(split) bytes")
    invariant(webSocket.messages.count <= WebSocketStream.maxMessages, "\(webSocket.messages.count) messages")
    for coding in ContentCoding.allCases {
        let decoded = ContentDecoder.decode(Data(server), codings: [coding], limit: 4_096)
        invariant(decoded.bytes.count <= 4_096, "\(coding) decoded \(decoded.bytes.count) bytes past the limit")
    }
    kept(client: client, server: server, mode: mode)
    return 0
}

func kept(client: [UInt8], server: [UInt8], mode: UInt8) {
    let turn = 1 + Int(mode >> 4) * 4
    let limits = PlaintextBudget.Limits(bytesPerTurn: turn, bytesPerDirection: turn * 5, recordsPerDirection: 12)
    var budget = PlaintextBudget(limits: limits)
    var streams = [KeptStream(), KeptStream()]
    var fed = [0, 0], placed = [0, 0]
    var chunks: [DecryptedChunk] = []
    let start = Date(timeIntervalSince1970: 0)
    let chunking = Chunking(selector: mode)
    // The client's and the server's chunks alternate, so turns change as they would.
    var pieces: [(Direction, Data)] = []
    let clientRanges = chunking.ranges(count: client.count), serverRanges = chunking.ranges(count: server.count)
    for index in 0..<max(clientRanges.count, serverRanges.count) {
        if index < clientRanges.count { pieces.append((.outbound, Data(client[clientRanges[index]]))) }
        if index < serverRanges.count { pieces.append((.inbound, Data(server[serverRanges[index]]))) }
    }
    func place(_ record: PlaintextBudget.Record, of piece: Data, _ direction: Direction) {
        let side = Int(direction.rawValue)
        invariant(record.kept.lowerBound >= 0 && record.kept.upperBound <= piece.count, "kept \(record.kept) of \(piece.count)")
        streams[side].append(piece[record.kept], dropped: record.dropped)
        placed[side] += record.originalLength
        chunks.append(DecryptedChunk(direction: direction, timestamp: start, bytes: piece.subdata(in: record.kept),
                                     originalLength: record.originalLength))
    }
    var heads = HTTPRequestHeads()
    var requests = 0
    for (direction, piece) in pieces {
        let texts = heads.feed(piece, direction: direction)
        requests += texts.count
        invariant(texts.allSatisfy { $0.utf8.count <= HTTPRequestHeads.maxTextBytes } && requests <= HTTPRequestHeads.maxRequests,
                  "\(requests) request heads, one of \(texts.map(\.utf8.count).max() ?? 0) bytes")
        fed[Int(direction.rawValue)] += piece.count
        let (records, dropped) = budget.admit(piece, direction: direction)
        invariant(dropped <= piece.count, "dropped \(dropped) of \(piece.count)")
        for record in records { place(record, of: piece, direction) }
    }
    for (direction, gap) in budget.closingGaps() { place(gap, of: Data(), direction) }
    let keptAny = streams.contains { !$0.bytes.isEmpty }
    for side in 0..<2 {
        invariant(streams[side].bytes.count <= limits.bytesPerDirection, "kept \(streams[side].bytes.count) past the limit")
        invariant(!keptAny || placed[side] == fed[side], "side \(side): placed \(placed[side]) of \(fed[side])")
        invariant(streams[side].carried == placed[side], "side \(side): carried \(streams[side].carried), placed \(placed[side])")
    }
    let connection = HTTP2Connection(client: streams[0], server: streams[1])
    invariant(connection.unreadClientBytes + connection.notFollowedClientBytes <= streams[0].carried, "client unread past the end")
    invariant(connection.unreadServerBytes + connection.notFollowedServerBytes <= streams[1].carried, "server unread past the end")
    _ = DecryptedContent(chunks, connectionStart: start).httpNotes
}
