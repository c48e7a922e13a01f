import App
import Foundation
import Shared
import Testing
import TestSupport

/// A WebSocket connection read back from an inspected HTTP/1.1 connection's kept bytes, checked
/// against Python's `websockets`: its client and server talking in memory, each side's own
/// reader's frames the expected messages.
@Suite struct WebSocketConversationTests {
    typealias C = DecryptedChunks

    /// The oracle's chunks in the order sent, a millisecond apart; and each side's messages as
    /// its peer's reader got them, fragments joined: [kind opcode, payload].
    static func oracle(_ mode: String) throws -> (chunks: [DecryptedChunk], sent: [(UInt8, Data)], received: [(UInt8, Data)]) {
        let out = try WebSocketOracle.conversation(mode)
        let chunks = (out["chunks"] as? [[String]] ?? []).enumerated().map { index, pair in
            C.chunk(pair[0] == "sent" ? .outbound : .inbound, HexText.data(pair[1]), at: index)
        }
        let frames = out["frames"] as? [String: [[Any]]] ?? [:]
        func messages(_ side: String) -> [(UInt8, Data)] {
            var joined: [(UInt8, Data)] = []
            var open: (UInt8, Data)?
            for frame in frames[side] ?? [] {
                let opcode = UInt8(frame[0] as? Int ?? -1), fin = frame[1] as? Bool ?? true
                let data = HexText.data(frame[2] as? String ?? "")
                if opcode == 0 { open?.1 += data } else if opcode >= 8 { joined.append((opcode, data)); continue } else { open = (opcode, data) }
                if fin, let message = open { joined.append(message); open = nil }
            }
            return joined
        }
        return (chunks, messages("sent"), messages("received"))
    }

    static func opcode(_ kind: WebSocketMessage.Kind) -> UInt8 {
        switch kind {
        case .text: 1
        case .binary: 2
        case .close: 8
        case .ping: 9
        case .pong: 10
        case let .reserved(opcode): opcode
        }
    }

    @Test("after the upgrade, each side's messages read as websockets' reader got them, with and without permessage-deflate",
          arguments: ["plain", "deflate"])
    func againstPythonWebsockets(_ mode: String) throws {
        let oracle = try Self.oracle(mode)
        let content = DecryptedContent(oracle.chunks, connectionStart: C.start)
        guard case let .http1(http) = content.application else { Issue.record("not read as HTTP/1.1"); return }
        #expect(http.exchanges.count == 1 && http.switchedProtocols && http.unreadSentBytes == 0 && http.unreadReceivedBytes == 0)
        #expect(http.exchanges[0].response?.status == 101)
        let webSocket = try #require(http.webSocket)
        for (direction, expected) in [(Direction.outbound, oracle.sent), (.inbound, oracle.received)] {
            let read = webSocket.entries.filter { $0.direction == direction }.map(\.message)
            #expect(read.map { Self.opcode($0.kind) } == expected.map(\.0), "\(mode) \(direction)")
            #expect(read.map(\.payload) == expected.map(\.1), "\(mode) \(direction)")
            #expect(read.allSatisfy { $0.complete })
            #expect(read.allSatisfy { ($0.inflating != nil) == (mode == "deflate" && $0.kind != .close && $0.kind != .ping
                                                                  && $0.kind != .pong) }, "\(mode) \(direction)")
        }
        // In the order they were seen: the client's hello first, the server's close last.
        #expect(webSocket.entries.first.map(WebSocketConversation.heading) == "sent, text, 22 bytes" + (mode == "deflate" ? ", inflated (permessage-deflate)" : ""))
        #expect(webSocket.entries.last.map(WebSocketConversation.heading) == "received, close 1000 (normal closure): done for now")
        #expect(webSocket.entries.contains { WebSocketConversation.heading($0).hasPrefix("sent, text, 18 bytes in 2 frames") })
        #expect(webSocket.notes.isEmpty)
        #expect(content.protocolLine == "HTTP/1.1: 1 request on this connection, each with its response, then WebSocket: 9 messages")
        #expect(content.httpNotes.isEmpty)
    }

    @Test("a message whose final fragment was not kept is said so, and a frame cut short is counted")
    func cutMidMessage() throws {
        let oracle = try Self.oracle("plain")
        let all = oracle.chunks
        // Everything up to the fragmented message's first frame, plus half of the next sent chunk.
        let head = try #require(all.firstIndex { $0.direction == .outbound && $0.bytes.count == 16 })   // "part one, " masked
        let cut = all[head + 1]
        let kept = Array(all[...head]) + [C.chunk(.outbound, cut.bytes.prefix(4), carried: cut.bytes.count, at: head + 1)]
        let content = DecryptedContent(kept, connectionStart: C.start)
        let webSocket = try #require(content.webSocket)
        let last = try #require(webSocket.entries.last { $0.direction == .outbound })
        #expect(!last.message.complete && WebSocketConversation.heading(last) == "sent, text, 10 bytes — its final fragment was not kept")
        #expect(webSocket.notes == ["the last 4 bytes sent begin a frame that was not kept whole"])
    }

    @Test("bytes after an upgrade the server refused are not read as another protocol")
    func refusedUpgrade() {
        let request = "GET /chat HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        let chunks = [C.chunk(.outbound, Data(request.utf8) + Data([0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6f, 0x68, 0x6e])),
                      C.chunk(.inbound, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", at: 5)]
        #expect(DecryptedContent(chunks, connectionStart: C.start).application == .unrecognized)
    }
}
