import Foundation

/// One WebSocket message (RFC 6455 §5.4, §5.6): a text or binary message joined from its
/// fragments, or a control frame (close, ping, pong) on its own.
package struct WebSocketMessage: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case text, binary, close, ping, pong
        /// An opcode §5.2 reserves: the frame is shown as it came.
        case reserved(UInt8)
    }

    package let kind: Kind
    /// The payload joined (and inflated when permessage-deflate compressed it).
    package let payload: Data
    /// Where the message's first frame began in its direction's bytes after the upgrade.
    package let offset: Int
    package let frames: Int
    /// The final fragment was seen.
    package let complete: Bool
    /// Compressed by permessage-deflate (RFC 7692): how its inflating ended, nil when it was not.
    package let inflating: ContentDecoding.Ending?

    /// A close frame's status code (§5.5.1, §7.4), nil when it carried none.
    package var closeCode: UInt16? {
        guard kind == .close, payload.count >= 2 else { return nil }
        return UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1])
    }

    /// A close frame's reason, after its code.
    package var closeReason: String {
        guard kind == .close, payload.count > 2 else { return "" }
        return String(decoding: payload.dropFirst(2), as: UTF8.self)
    }
}

/// One direction of a WebSocket connection read into messages, with what could not be read.
package struct WebSocketStream: Sendable, Equatable {
    package let messages: [WebSocketMessage]
    /// Bytes at the end that begin a frame that was not kept whole.
    package let unreadBytes: Int
    /// A fragment out of place (§5.4), said once; the frames after it are still read.
    package let problem: String?

    /// Bounds the work on a long connection's kept bytes.
    package static let maxMessages = 10_000

    /// `compressed`: permessage-deflate was agreed for this direction; `contextTakeover`: its
    /// sender keeps the compression window between messages (RFC 7692 §7.1.1).
    package init(_ bytes: [UInt8], compressed: Bool = false, contextTakeover: Bool = true) {
        let read = WebSocketFrame.frames(in: bytes[...])
        var messages: [WebSocketMessage] = []
        var problem: String?
        var open: (offset: Int, opcode: UInt8, payload: [UInt8], frames: Int, deflated: Bool)?
        let inflater = compressed ? WebSocketInflater() : nil
        func finish(_ opcode: UInt8, _ payload: [UInt8], offset: Int, frames: Int, complete: Bool, deflated: Bool) {
            guard messages.count < Self.maxMessages else { return }
            var data = Data(payload), inflating: ContentDecoding.Ending?
            if deflated, let inflater {
                let inflated = inflater.inflate(payload, complete: complete)
                (data, inflating) = (inflated.bytes, inflated.ending)
                if !contextTakeover { inflater.reset() }
            }
            messages.append(WebSocketMessage(kind: Self.kind(opcode), payload: data, offset: offset, frames: frames,
                                             complete: complete, inflating: inflating))
        }
        for (offset, frame) in read.frames {
            if frame.isControl {
                finish(frame.opcode, frame.payload, offset: offset, frames: 1, complete: true, deflated: false)
            } else if frame.opcode == WebSocketFrame.Opcode.continuation {
                guard open != nil else {
                    problem = problem ?? "a continuation frame with no message begun (RFC 6455 §5.4)"
                    continue
                }
                open?.payload += frame.payload
                open?.frames += 1
            } else {
                if let unfinished = open {
                    problem = problem ?? "a new message began before the last one's final fragment (RFC 6455 §5.4)"
                    finish(unfinished.opcode, unfinished.payload, offset: unfinished.offset, frames: unfinished.frames,
                           complete: false, deflated: unfinished.deflated)
                }
                open = (offset, frame.opcode, frame.payload, 1, compressed && frame.rsv1)
            }
            if !frame.isControl, frame.fin, let done = open {
                finish(done.opcode, done.payload, offset: done.offset, frames: done.frames, complete: true, deflated: done.deflated)
                open = nil
            }
        }
        if let unfinished = open {
            finish(unfinished.opcode, unfinished.payload, offset: unfinished.offset, frames: unfinished.frames,
                   complete: false, deflated: unfinished.deflated)
        }
        self.messages = messages
        unreadBytes = read.unreadBytes
        self.problem = problem
    }

    static func kind(_ opcode: UInt8) -> WebSocketMessage.Kind {
        switch opcode {
        case WebSocketFrame.Opcode.text: .text
        case WebSocketFrame.Opcode.binary: .binary
        case WebSocketFrame.Opcode.close: .close
        case WebSocketFrame.Opcode.ping: .ping
        case WebSocketFrame.Opcode.pong: .pong
        default: .reserved(opcode)
        }
    }
}
