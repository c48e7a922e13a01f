/// An HTTP/2 connection read back from its two kept byte streams (RFC 9113): the client's (after
/// the preface, §3.4) and the server's, each read frame by frame with its own HPACK decoder. A
/// reader of what was recorded: it follows what was sent without judging it, and says where it
/// had to stop. Pure.
package struct HTTP2Connection: Sendable, Equatable {
    /// Every stream that carried a frame or was promised, by identifier.
    package private(set) var streams: [HTTP2Stream] = []
    /// The GOAWAY frames, in the order each side sent them.
    package private(set) var goAways: [HTTP2GoAway] = []
    /// Where a side's header blocks stopped being readable, and why (a broken block leaves that
    /// side's HPACK table unknown, so the blocks after it cannot be read).
    package private(set) var problems: [HTTP2Problem] = []
    /// Bytes at the end of each side that begin a frame the connection ended inside.
    package private(set) var unreadClientBytes = 0
    package private(set) var unreadServerBytes = 0
    /// Bytes of each side after a frame header the budget did not keep: nothing there can be
    /// placed in a stream.
    package private(set) var notFollowedClientBytes = 0
    package private(set) var notFollowedServerBytes = 0
    /// DATA frames whose padding ran past their end (RFC 9113 §6.1: a PROTOCOL_ERROR), not read.
    package private(set) var malformedFrames = 0
    /// Streams past `maxStreams` are counted, not kept.
    package var streamsNotKept: Int { notKept.count }
    private var notKept: Set<UInt32> = []
    private var streamIndex: [UInt32: Int] = [:]

    /// Bounds the work on a long connection's kept bytes.
    package static let maxStreams = 1_000
    /// §3.4: the client connection preface.
    package static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// §6.5.2: SETTINGS_HEADER_TABLE_SIZE.
    static let headerTableSizeSetting: UInt16 = 0x1

    /// `client` is what the client sent, preface first; `server` what it received.
    package init(client: [UInt8], server: [UInt8]) {
        self.init(client: KeptStream(client), server: KeptStream(server))
    }

    /// The same, from each side as kept, with the gaps the budget left.
    package init(client: KeptStream, server: KeptStream) {
        let afterPreface = client.bytes.starts(with: Self.preface) ? client.droppingFirst(Self.preface.count) : nil
        let clientFrames = HTTP2Frame.frames(in: afterPreface ?? KeptStream())
        let serverFrames = HTTP2Frame.frames(in: server)
        unreadClientBytes = afterPreface == nil ? client.bytes.count : clientFrames.unreadBytes
        unreadServerBytes = serverFrames.unreadBytes
        notFollowedClientBytes = afterPreface == nil ? client.carried - client.bytes.count : clientFrames.notFollowed
        notFollowedServerBytes = serverFrames.notFollowed
        // §6.5.2: each side's encoder may grow its table up to what the other side announced.
        // Both streams are read whole, so the largest announcement bounds every update.
        read(clientFrames.frames, from: .client, tableSizeLimit: Self.largestTableSize(serverFrames.frames))
        read(serverFrames.frames, from: .server, tableSizeLimit: Self.largestTableSize(clientFrames.frames))
        streams.sort { $0.id < $1.id }
        streamIndex = [:]
    }

    static func largestTableSize(_ frames: [HTTP2Frame]) -> Int {
        var largest = HPACKDecoder.defaultTableSize
        for frame in frames where frame.kind == .settings && !frame.has(HTTP2Frame.Flag.acknowledge) {
            var offset = 0
            while offset + 6 <= frame.payload.count {
                let start = frame.payload.startIndex + offset
                let identifier = UInt16(frame.payload[start]) << 8 | UInt16(frame.payload[start + 1])
                if identifier == headerTableSizeSetting, let value = frame.word(at: offset + 2) {
                    largest = max(largest, Int(min(value, UInt32(HPACKDecoder.maxInteger))))
                }
                offset += 6
            }
        }
        return largest
    }

    /// A header block being assembled from HEADERS or PUSH_PROMISE and its CONTINUATIONs (§6.10).
    private struct OpenBlock {
        let streamID: UInt32
        /// The stream a PUSH_PROMISE promised: the block is that stream's request.
        let promised: UInt32?
        let endsStream: Bool
        var fragment: [UInt8]
    }

    private mutating func read(_ frames: [HTTP2Frame], from side: HTTP2Side, tableSizeLimit: Int) {
        var decoder = HPACKDecoder(tableSizeLimit: tableSizeLimit)
        var open: OpenBlock?
        var headersReadable = true
        for frame in frames {
            if let block = open, frame.kind != .continuation || frame.streamID != block.streamID {
                stop(side, "a header block of stream \(block.streamID) was not continued (RFC 9113 §6.10)", &headersReadable)
                open = nil
            }
            if frame.isCut && frame.kind != .data {
                // Only DATA is kept in part by design; another frame cut is where the budget ran out.
                if [.headers, .pushPromise, .continuation].contains(frame.kind) {
                    stop(side, "a header block of stream \(frame.streamID) was not kept whole", &headersReadable)
                    open = nil
                }
                continue
            }
            switch frame.kind {
            case .data?:
                guard let data = frame.unpadded, let content = frame.contentLength else {
                    malformedFrames += 1
                    continue
                }
                update(frame.streamID, side) { half in
                    // After a cut, later content has no place in the kept bytes: it is counted.
                    if !half.dataCut { half.data.append(contentsOf: data) }
                    if data.count < content { half.dataCut = true }
                    half.dataLength += content
                    half.dataFrames += 1
                    if frame.has(HTTP2Frame.Flag.endStream) { half.ended = true }
                }
            case .headers?:
                guard var fragment = frame.unpadded else {
                    stop(side, "a HEADERS frame of stream \(frame.streamID) padded past its end", &headersReadable)
                    continue
                }
                if frame.has(HTTP2Frame.Flag.priority) {
                    // §6.2: the stream dependency (4 bytes) and weight (1) come before the block.
                    guard fragment.count >= 5 else {
                        stop(side, "a HEADERS frame of stream \(frame.streamID) shorter than its priority fields", &headersReadable)
                        continue
                    }
                    fragment = fragment.dropFirst(5)
                }
                open = OpenBlock(streamID: frame.streamID, promised: nil, endsStream: frame.has(HTTP2Frame.Flag.endStream),
                                 fragment: Array(fragment))
            case .pushPromise?:
                guard let payload = frame.unpadded, payload.count >= 4 else {
                    stop(side, "a PUSH_PROMISE frame of stream \(frame.streamID) shorter than its fields", &headersReadable)
                    continue
                }
                let promised = (UInt32(payload[payload.startIndex]) & 0x7f) << 24 | UInt32(payload[payload.startIndex + 1]) << 16
                    | UInt32(payload[payload.startIndex + 2]) << 8 | UInt32(payload[payload.startIndex + 3])
                open = OpenBlock(streamID: frame.streamID, promised: promised, endsStream: false, fragment: Array(payload.dropFirst(4)))
            case .continuation?:
                guard open != nil else {
                    stop(side, "a CONTINUATION frame of stream \(frame.streamID) with no header block open", &headersReadable)
                    continue
                }
                open?.fragment.append(contentsOf: frame.payload)
            case .resetStream?:
                if let code = frame.word(at: 0) { update(frame.streamID, side) { $0.reset = code } }
            case .goAway?:
                if let last = frame.word(at: 0), let code = frame.word(at: 4) {
                    let debug = frame.payload.dropFirst(8)
                    goAways.append(HTTP2GoAway(side: side, lastStreamID: last & 0x7fff_ffff, code: code,
                                               debugData: String(decoding: debug, as: UTF8.self)))
                }
            case .priority?, .settings?, .ping?, .windowUpdate?, nil:
                continue
            }
            guard let block = open, frame.has(HTTP2Frame.Flag.endHeaders) else { continue }
            open = nil
            guard headersReadable else { continue }
            do {
                let fields = try decoder.decode(block.fragment[...])
                if let promised = block.promised {
                    update(promised, .client, promisedBy: block.streamID) { half in
                        half.headerBlocks.append(fields)
                        half.ended = true   // §8.4: a promised request has no content
                    }
                } else {
                    update(block.streamID, side) { half in
                        half.headerBlocks.append(fields)
                        if block.endsStream { half.ended = true }
                    }
                }
            } catch {
                stop(side, "the header block of stream \(block.streamID) could not be decoded: \(error)", &headersReadable)
            }
        }
        if let block = open { stop(side, "the header block of stream \(block.streamID) was cut before its end", &headersReadable) }
    }

    /// Records why `side`'s header blocks are no longer read, once.
    private mutating func stop(_ side: HTTP2Side, _ reason: String, _ headersReadable: inout Bool) {
        guard headersReadable else { return }
        headersReadable = false
        problems.append(HTTP2Problem(side: side, reason: reason))
    }

    /// Changes `side`'s half of stream `id`, making the stream if it is new (and room is left).
    private mutating func update(_ id: UInt32, _ side: HTTP2Side, promisedBy: UInt32? = nil, _ change: (inout HTTP2StreamHalf) -> Void) {
        guard id != 0 else { return }   // stream 0 is the connection's own (§5.1.1)
        let index: Int
        if let known = streamIndex[id] {
            index = known
        } else {
            guard streams.count < Self.maxStreams else {
                notKept.insert(id)
                return
            }
            streams.append(HTTP2Stream(id: id))
            index = streams.count - 1
            streamIndex[id] = index
        }
        if let promisedBy { streams[index].promisedBy = promisedBy }
        change(&streams[index][side])
    }
}

/// Who sent a frame.
package enum HTTP2Side: Sendable, Equatable {
    case client, server
}

/// One stream (§5): what each side sent on it. A pushed stream's request is its PUSH_PROMISE.
package struct HTTP2Stream: Sendable, Equatable {
    package let id: UInt32
    /// The client's stream whose PUSH_PROMISE opened this one (§8.4).
    package internal(set) var promisedBy: UInt32?
    /// The request: its header blocks (the first the request's, a later one trailers) and content.
    package internal(set) var client = HTTP2StreamHalf()
    /// The response: 1xx blocks, the final one, then trailers; and the content.
    package internal(set) var server = HTTP2StreamHalf()

    init(id: UInt32) { self.id = id }

    subscript(side: HTTP2Side) -> HTTP2StreamHalf {
        get { side == .client ? client : server }
        set { if side == .client { client = newValue } else { server = newValue } }
    }
}

/// What one side sent on one stream.
package struct HTTP2StreamHalf: Sendable, Equatable {
    /// Header lists in order.
    package internal(set) var headerBlocks: [[HPACKHeaderField]] = []
    /// The DATA frames' content joined, padding removed, up to the first the budget cut.
    package internal(set) var data: [UInt8] = []
    /// The content the DATA frames carried, kept or not (their headers say it).
    package internal(set) var dataLength = 0
    /// The budget did not keep all of the content: `data` is its beginning.
    package internal(set) var dataCut = false
    package internal(set) var dataFrames = 0
    /// END_STREAM was seen: this side sent everything it had on the stream.
    package internal(set) var ended = false
    /// The error code of the RST_STREAM this side sent (§6.4).
    package internal(set) var reset: UInt32?
}

package struct HTTP2GoAway: Sendable, Equatable {
    package let side: HTTP2Side
    /// The last stream the sender processed or may (§6.8).
    package let lastStreamID: UInt32
    package let code: UInt32
    package let debugData: String
}

package struct HTTP2Problem: Sendable, Equatable {
    package let side: HTTP2Side
    package let reason: String
}
