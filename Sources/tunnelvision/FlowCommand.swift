import Foundation
import App
import Shared

/// `tunnelvision flow ID [--data-dir D] [--json] [--packets N] [--packet N] [--pcap FILE |
/// --pcapng FILE] [--force]`: one connection of the history — the inspector, one packet's detail,
/// or its packets exported to a capture. Parses and renders; every decision is `App`'s.
enum FlowCommand {
    struct Request: Equatable {
        var question: FlowQuestion
        var json: Bool
    }

    static let help = """
    tunnelvision flow ID [--data-dir D] [--json] [--packets N]
    tunnelvision flow ID --packet N [--data-dir D] [--json]
    tunnelvision flow ID --pcap FILE | --pcapng FILE [--force] [--data-dir D] [--json]

    One connection of the history, by the id 'tunnelvision flows' shows (the history is read, never
    created). Without options: its two ends (this device's first), protocol, first to last packet,
    received and sent, whether it was encrypted; its name and where it came from; what the client
    offered, what the server answered and its certificates; for a connection inspected with your
    CA whose content was kept, that content (HTTP/1.1 and HTTP/2 as requests and responses, each
    HTTP/2 stream with its headers decoded, bodies decoded from gzip, deflate and br, WebSocket
    messages after an upgrade, anything else as sent); then its packets in time order, each
    titled by what it did — opened (SYN), accepted (SYN ACK), data, delivery confirmed (a bare
    ACK), finished sending (FIN), cut off (RST, whatever else is set) — with its flags, its time
    since the first packet, its direction and size. At most 500 are listed (--packets N for
    another number); the footer says how many there are.

    --packet N     packet N of the list (from 1): its facts, its bytes as the capture kept them (hex
                   and ASCII, 16 a line), its headers field by field, and for DNS on port 53 what
                   was looked up and answered. Bytes are shown only when the capture's record there
                   is this packet; otherwise why not: the capture was deleted, capture was off,
                   the record is unreadable or is another packet (exit status 1).
    --pcap FILE    write the connection's captured packets to FILE, classic pcap of raw IP;
    --pcapng FILE  or pcapng, each packet's comment "flow=ID direction=sent|received" and its
                   direction flag set. Packets without bytes are counted and reported. FILE is
                   created owner-only (0600); an existing FILE is kept unless --force; a failure
                   leaves no file.
    --json         one JSON document. Inspector: {"id", "name", "nameSource", "nameSourceText", "otherNames",
                   "proxy" (as 'tunnelvision help flows' says, with "text": the sentence shown),
                   "protocol", "ipVersion", "local", "remote", "ends", "communityID", "fingerprints", "dns",
                   "encryptedDNS", "conversation" (as 'tunnelvision help flows' says),
                   "dnsText", "encryptedDNSText" (the same in words, or null), "firstPacket",
                   "lastPacket" (UTC), "durationSeconds", "bytesReceived", "bytesSent",
                   "encryption" (plaintext|encrypted|inspected|notInspectable|inspectionFailed),
                   "encryptionLabel" (the same in a screen's words),
                   "streamOpening" (tlsHandshake|httpRequest|unrecognised, or the protocol that
                   switched to TLS: smtpStartTLS|imapStartTLS|pop3STLS|ftpAuthTLS|xmppStartTLS|
                   ldapStartTLS|postgresSSLRequest), "quicVersion", "clientOffer", "serverAnswer"
                   (on an inspected connection: the real server's answer to TunnelVision),
                   "leafTLS" (what the app
                   and TunnelVision's certificate negotiated, or null), "serverEnding"
                   (closeNotify|withoutCloseNotify|reset|fatalAlert|null), "program" (as
                   'tunnelvision help flows' says), "inspectionReason",
                   "inspectionDetail" (as 'tunnelvision help flows' says), "certificates" (as analyze's),
                   "handshake": [{"label", "text"}] (what the text form lists under "What the
                   handshake said", in its words), "decryptedNote" (why no decrypted content is
                   shown, or null), "decrypted" (only for an inspected connection whose content was
                   read) {"marking", "protocol" (HTTP/1.1|HTTP/2|null), "protocolNote",
                   "endingNote" (what an unclean end by the server means, or null), "turns":
                   [{"direction", "at", "seconds", "heading", "storedBytes", "originalBytes",
                   "truncated", "note", "text" | "hex" with "dump" and "bytesNotDrawn"}], "http":
                   [{"stream", "promisedBy" (HTTP/2's stream, and the stream whose push opened
                   it; null on HTTP/1.1), "request", "requestMissing", "interim", "response",
                   "responseMissing" (why either is null, or null), "notes" (a reset, a push)};
                   each message {"startLine", "method", "target" | "status", "reason", "version",
                   "headers": [[name, value]] (HTTP/2's pseudo-headers among them, as sent),
                   "trailers": [[name, value]], "body": {"framing"
                   (none|length|chunked|untilClose|frames), "storedBytes", "declaredBytes",
                   "complete", "summary", "kind" (none|json|text|binary|compressed), "text" |
                   "hex"…}}}], "httpNotes", "webSocket" (after an upgrade to it) {"messages":
                   [{"direction", "at", "seconds", "kind" (text|binary|close|ping|pong), "heading",
                   "bytes", "frames", "complete", "closeCode", "closeReason", "text" | "hex"…}]}},
                   "storedPackets", "shownPackets", "footer",
                   "packets": [{"number", "seconds", "at", "direction", "length", "title", "flags",
                   "capture" {"file", "offset"}}]}.
                   Packet: {"flow", "number", "title", "seconds", "at", "direction", "length",
                   "flags", "capture", "reason" (null, captureDeleted, captureOff,
                   captureStopped, unreadable, mismatch), "note", "retry", "capturedLength",
                   "originalLength", "truncated", "bytes" (hex of the captured datagram), "dump"
                   (the lines a screen draws: offset, hex, ASCII, of the first \(PacketBytesPresentation.screenByteLimit) bytes),
                   "bytesNotDrawn", "headers": [{"layer", "name", "value"}], "dns" {"kind", "lookedUp",
                   "recordType", "addresses", "names", "undecodedRecords", "noAnswer"
                   (noSuchName|noRecordsOfThatType|failed) | "unreadable" (keptTooLittle|notDNS)}}.
                   Export: {"file", "format", "written", "captureDeleted", "notCaptured",
                   "unreadable"}.

    Exit status 1 when the history cannot be read, the id is unknown, the packet is out of range
    or its bytes cannot be shown, or nothing could be exported; 2 on a usage error.

    \(JSONSizeHelp.paragraph)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        do {
            return Request(question: try FlowQuestion.parse(arguments), json: json)
        } catch {
            throw Invocation.UsageError(message: error.message)
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let question = request.question, json = request.json, id = question.flowID
        do throws(QuestionFailure) {
            switch question.action {
            case let .inspect(packets):
                let inspector = try await question.inspector(packets: packets)
                print(json ? inspector.json() : inspector.text())
                return 0
            case let .packet(number):
                let detail = try await question.packet(number)
                print(json ? detail.json(flowID: id) : detail.text(flowID: id))
                guard detail.record == nil, let note = detail.note else { return 0 }
                printError("tunnelvision: packet \(number) of connection \(id): \(note)")
                return 1
            case let .export(format, path, force):
                let url = URL(fileURLWithPath: path)
                let summary = try await question.export(format, to: url, force: force)
                if json {
                    print(summary.json(file: url.path, format: format))
                } else {
                    printError("tunnelvision: \(url.path): \(summary.text)")
                }
                return 0
            }
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}
