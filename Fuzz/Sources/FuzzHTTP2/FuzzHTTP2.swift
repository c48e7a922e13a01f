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
/// inside the bytes, in order, no more than the bound.
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
    return 0
}
