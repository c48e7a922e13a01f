import Foundation
import Linux
import Posix
import Shared
import Testing

/// The control connection's decisions, with the kernel's answers scripted.
@Suite("A control connection's exchange")
struct ControlConnectionTests {
    static let limits = ControlServerLimits(maximumCommandBytes: 16, exchangeDeadline: .seconds(3), maximumConnections: 2,
                                            acceptBurst: 4, listenBacklog: 4, acceptRetryDelay: .milliseconds(100))

    static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    /// The `failed` message of a refusal line the connection asked to send.
    static func refusal(_ action: ControlConnection.Action) throws -> String {
        guard case .send(let line) = action, line.last == UInt8(ascii: "\n"),
              case .failed(let message) = try ControlChannel.decodeResponse(Data(line.dropLast())) else {
            Issue.record("expected a refusal line, got \(action)")
            return ""
        }
        return message
    }

    @Test("a command fed in pieces is executed once its newline arrives, without what follows it")
    func commandInPieces() {
        var connection = ControlConnection(limits: Self.limits)
        #expect(connection.received(Self.bytes("{\"comm")) == .awaitCommand)
        #expect(connection.isReceiving)
        #expect(connection.received(Self.bytes("and\"}\nrest")) == .execute(Array("{\"command\"}".utf8)))
        #expect(!connection.isReceiving)
    }

    @Test("the reply is sent as the socket takes it: partial sends continue, a full socket waits for writability")
    func replyQueued() {
        var connection = ControlConnection(limits: Self.limits)
        _ = connection.received(Self.bytes("x\n"))
        let reply = Array("0123456789\n".utf8)
        #expect(connection.respond(reply) == .send(reply[...]))
        #expect(connection.wrote(.processed(4)) == .send(reply[4...]))
        #expect(connection.wrote(.wouldBlock) == .awaitWritable)
        #expect(connection.writable() == .send(reply[4...]))
        #expect(connection.wrote(.processed(0)) == .awaitWritable)
        #expect(connection.wrote(.processed(7)) == .close(.answered))
        #expect(connection.wrote(.processed(1)) == .closed)
    }

    @Test("reads never let the buffer grow past the limit plus one byte; one byte over is refused with the limit named")
    func overLong() throws {
        var connection = ControlConnection(limits: Self.limits)
        #expect(connection.readLimit == 17)
        #expect(connection.received(Self.bytes(String(repeating: "a", count: 10))) == .awaitCommand)
        #expect(connection.readLimit == 7)
        let refused = connection.received(Self.bytes(String(repeating: "a", count: 7)))
        #expect(try Self.refusal(refused).contains("at most 16 bytes"))
        #expect(connection.readLimit == 0)
        guard case .send(let line) = refused else {
            Issue.record("the refusal was not sent"); return
        }
        #expect(connection.wrote(.processed(line.count)) == .close(.overLong))
    }

    @Test("a command of exactly the limit, with its newline in the extra byte, is executed")
    func exactlyTheLimit() {
        var connection = ControlConnection(limits: Self.limits)
        let command = String(repeating: "b", count: 16)
        #expect(connection.received(Self.bytes(command + "\n")) == .execute(Array(command.utf8)))
    }

    @Test("the deadline refuses a client still sending, and closes one that does not take its reply")
    func deadline() throws {
        var silent = ControlConnection(limits: Self.limits)
        _ = silent.received(Self.bytes("{\"half"))
        let told = silent.deadlinePassed()
        #expect(try Self.refusal(told).contains("within 3 s;"))
        // Past the deadline nothing waits for the socket to drain.
        #expect(silent.wrote(.wouldBlock) == .close(.idle))

        var deaf = ControlConnection(limits: Self.limits)
        _ = deaf.received(Self.bytes("x\n"))
        _ = deaf.respond(Array("reply\n".utf8))
        #expect(deaf.wrote(.wouldBlock) == .awaitWritable)
        #expect(deaf.deadlinePassed() == .close(.idle))
        #expect(deaf.deadlinePassed() == .closed)
    }

    @Test("a client that hangs up or fails is closed as gone, and a refusal it never read still counts as the refusal")
    func clientGone() {
        var hungUp = ControlConnection(limits: Self.limits)
        _ = hungUp.received(Self.bytes("{"))
        #expect(hungUp.endOfStream() == .close(.clientGone))

        var reset = ControlConnection(limits: Self.limits)
        _ = reset.received(Self.bytes("x\n"))
        _ = reset.respond(Array("reply\n".utf8))
        #expect(reset.wrote(.failed(EPIPE)) == .close(.clientGone))

        var refused = ControlConnection(limits: Self.limits)
        _ = refused.refuseOverCap()
        #expect(refused.wrote(.failed(EPIPE)) == .close(.overCap))
    }

    @Test("over the cap the client is told the cap at once, and nothing waits for its socket")
    func overCap() throws {
        var connection = ControlConnection(limits: Self.limits)
        let told = connection.refuseOverCap()
        #expect(try Self.refusal(told).contains("already serving 2 control connections"))
        #expect(connection.wrote(.wouldBlock) == .close(.overCap))
        #expect(Self.limits.admits(open: 1) && !Self.limits.admits(open: 2))
    }

    @Test("each close reason is counted under its own name")
    func counted() {
        var stats = ControlStats()
        for reason: ControlCloseReason in [.answered, .answered, .overLong, .idle, .overCap, .overCap, .overCap, .clientGone] {
            stats.record(reason)
        }
        #expect(stats == ControlStats(commandsAnswered: 2, refusedOverLong: 1, closedIdle: 1, refusedOverCap: 3,
                                      clientsGone: 1, acceptFailures: 0))
    }
}
