import Foundation
import Posix
import Testing
@testable import Linux

/// A TCP leg's decisions with the kernel's answers scripted: each event's exact actions,
/// including what the relay is told (STYLE practice 14).
@Suite("A relayed TCP leg's write queue and state")
struct TCPRelaySocketStateTests {
    typealias State = TCPRelaySocketState
    typealias Actions = TCPRelaySocketState.Actions

    static func bytes(_ text: String) -> Data { Data(text.utf8) }

    /// Connected at once, watched for reads.
    static func connected() -> State {
        var state = State()
        _ = state.started(.connected)
        precondition(state.phase == .connected && state.watching == .read)
        return state
    }

    // MARK: The connect

    @Test("a connect that completes at once is reported and the socket watched for reads")
    func connectAtOnce() {
        var state = State()
        #expect(state.started(.connected) == Actions(watch: .register(.read), report: .connected))
    }

    @Test("a connect under way waits for writable; its end is asked, reported, and the watch turns to reads")
    func connectLater() {
        var state = State()
        #expect(state.started(.inProgress) == Actions(watch: .register(.write)))
        #expect(state.ready(.writable) == Actions(finishConnect: true))
        #expect(state.connectFinished(.inProgress) == .none)
        #expect(state.ready(.writable) == Actions(finishConnect: true))
        #expect(state.connectFinished(.connected) == Actions(watch: .modify(.read), report: .connected))
    }

    @Test("a refused connect closes and reports failed once; nothing after it does anything")
    func refused() {
        var state = State()
        _ = state.started(.inProgress)
        #expect(state.ready(.error) == Actions(finishConnect: true))
        let refusal = SocketError(.connect, remote: nil, errno: ECONNREFUSED)
        #expect(state.connectFinished(.failed(refusal)) == Actions(close: true, report: .failed))
        #expect(state.ready([.error, .hangup]) == .none)
        #expect(state.enqueue(Self.bytes("late")) == .none)
        #expect(state.requestShutdown() == .none)
        #expect(state.cancel() == .none)
    }

    @Test("no socket at all is reported failed, with nothing to close")
    func noSocket() {
        var state = State()
        #expect(state.started(nil) == Actions(report: .failed))
        #expect(state.phase == .closed)
    }

    @Test("bytes given while connecting wait; the connect's end watches for writable and the write drains them")
    func bytesBeforeConnect() {
        var state = State()
        _ = state.started(.inProgress)
        #expect(state.enqueue(Self.bytes("early")) == .none)
        #expect(state.connectFinished(.connected) == Actions(watch: .modify([.read, .write]), report: .connected))
        #expect(state.ready(.writable) == Actions(write: true))
        #expect(state.wrote(.processed(5)) == Actions(watch: .modify(.read), report: .drained(5)))
    }

    // MARK: Writing

    @Test("bytes on an empty queue are written at once; all taken is one drain and no change of watch")
    func writeAtOnce() {
        var state = Self.connected()
        #expect(state.enqueue(Self.bytes("hello")) == Actions(write: true))
        #expect(state.wrote(.processed(5)) == Actions(report: .drained(5)))
        #expect(state.pending.isEmpty)
    }

    @Test("EAGAIN keeps the bytes and waits for writable; bytes given meanwhile queue behind without a write")
    func wouldBlock() {
        var state = Self.connected()
        #expect(state.enqueue(Self.bytes("one ")) == Actions(write: true))
        #expect(state.wrote(.wouldBlock) == Actions(watch: .modify([.read, .write])))
        #expect(state.enqueue(Self.bytes("two")) == .none)
        #expect(state.pending == Self.bytes("one two"))
        #expect(state.ready(.readable) == Actions(read: true))
        #expect(state.ready([.readable, .writable]) == Actions(write: true, read: true))
        #expect(state.wrote(.processed(7)) == Actions(watch: .modify(.read), report: .drained(7)))
    }

    @Test("a short write reports what the kernel took and keeps the rest, in order, for the next writable")
    func shortWrite() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("hello world"))
        #expect(state.wrote(.processed(5)) == Actions(watch: .modify([.read, .write]), report: .drained(5)))
        #expect(state.pending == Self.bytes(" world"))
        #expect(state.ready(.writable) == Actions(write: true))
        #expect(state.wrote(.processed(2)) == Actions(report: .drained(2)))
        #expect(state.wrote(.processed(4)) == Actions(watch: .modify(.read), report: .drained(4)))
        #expect(state.pending.isEmpty)
    }

    @Test("bytes the relay lent and the kernel did not take are copied once its call ends; bytes appended are copied as they come")
    func lentBytesLeftOverAreCopied() {
        let lender = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 1)
        defer { lender.deallocate() }
        lender.copyBytes(from: Array("hello world, and the rest of it!".utf8))
        var state = Self.connected()
        _ = state.enqueue(Data(bytesNoCopy: lender.baseAddress!, count: 32, deallocator: .none))
        _ = state.wrote(.processed(6))
        state.ownPending()
        lender.initializeMemory(as: UInt8.self, repeating: 0)     // the next read, over the same buffer
        #expect(state.pending == Self.bytes("world, and the rest of it!"))
        // Lent again, behind bytes already waiting: taken in by the queue's own append.
        lender.copyBytes(from: Array(" And more, lent behind the rest.".utf8))
        _ = state.enqueue(Data(bytesNoCopy: lender.baseAddress!, count: 32, deallocator: .none))
        state.ownPending()
        lender.initializeMemory(as: UInt8.self, repeating: 0)
        #expect(state.pending == Self.bytes("world, and the rest of it! And more, lent behind the rest."))
    }

    @Test("ECONNRESET during a write closes and reports failed once, and drains nothing more")
    func resetDuringWrite() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("hello world"))
        #expect(state.wrote(.processed(5)) == Actions(watch: .modify([.read, .write]), report: .drained(5)))
        #expect(state.wrote(.failed(ECONNRESET)) == Actions(close: true, report: .failed))
        #expect(state.pending.isEmpty)
        #expect(state.wrote(.processed(6)) == .none)
        #expect(state.received(.failed(ECONNRESET)) == .none)
        #expect(state.ready([.error, .hangup]) == .none)
    }

    @Test("a reset heard by a read while bytes wait closes and reports failed once")
    func resetDuringRead() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("abc"))
        _ = state.wrote(.wouldBlock)
        #expect(state.received(.failed(ECONNRESET)) == Actions(close: true, report: .failed))
        #expect(state.wrote(.failed(EPIPE)) == .none)
    }

    // MARK: The half-close

    @Test("the half-close waits until every queued byte is written, and goes once")
    func shutdownAfterDrain() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("0123456789"))
        _ = state.wrote(.processed(4))
        #expect(state.requestShutdown() == .none)
        #expect(state.ready(.writable) == Actions(write: true))
        #expect(state.wrote(.wouldBlock) == .none)
        #expect(state.wrote(.processed(6)) == Actions(watch: .modify(.read), shutdownWrite: true, report: .drained(6)))
        #expect(state.requestShutdown() == .none)
        #expect(state.shutdownSent)
    }

    @Test("a half-close with nothing queued goes at once; one asked while connecting goes when connected")
    func shutdownAtOnce() {
        var state = Self.connected()
        #expect(state.requestShutdown() == Actions(shutdownWrite: true))
        var connecting = State()
        _ = connecting.started(.inProgress)
        #expect(connecting.requestShutdown() == .none)
        #expect(connecting.connectFinished(.connected)
                == Actions(watch: .modify(.read), shutdownWrite: true, report: .connected))
    }

    @Test("the peer's FIN while a write is pending: reported, reads stop, the write goes on, then the half-close")
    func endOfStreamWhileWriting() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("0123456789"))
        #expect(state.wrote(.processed(3)) == Actions(watch: .modify([.read, .write]), report: .drained(3)))
        #expect(state.received(.endOfStream) == Actions(watch: .modify(.write), report: .endOfStream))
        #expect(!state.mayRead)
        #expect(state.ready([.writable, .readable]) == Actions(write: true))
        #expect(state.requestShutdown() == .none)
        // Nothing left to want: the socket is not watched, so a hang-up cannot wake the loop on every turn.
        #expect(state.wrote(.processed(7)) == Actions(watch: .unregister, shutdownWrite: true, report: .drained(7)))
        #expect(state.watching == nil)
        #expect(state.ready(.hangup) == .none)
    }

    @Test("the peer's FIN with nothing queued stops the watch; a later half-close goes at once")
    func endOfStreamIdle() {
        var state = Self.connected()
        #expect(state.received(.endOfStream) == Actions(watch: .unregister, report: .endOfStream))
        #expect(state.received(.endOfStream) == .none)
        #expect(state.requestShutdown() == Actions(shutdownWrite: true))
        #expect(state.enqueue(Self.bytes("x")) == .none, "bytes after the half-close was asked are refused")
    }

    // MARK: Reading and the loop

    @Test("paused reads are not watched, nor is a socket wanted for nothing; resumed, it is watched again")
    func pausedReads() {
        var state = Self.connected()
        #expect(state.setReading(false) == Actions(watch: .unregister))
        #expect(state.setReading(false) == .none)
        #expect(state.ready(.readable) == .none)
        #expect(state.enqueue(Self.bytes("ab")) == Actions(write: true))
        #expect(state.wrote(.wouldBlock) == Actions(watch: .register(.write)))
        #expect(state.setReading(true) == Actions(watch: .modify([.read, .write])))
    }

    @Test("a hang-up or an error is heard by the write when bytes wait, and by the read otherwise")
    func troubleGoesToTheFailingCall() {
        var state = Self.connected()
        #expect(state.ready(.hangup) == Actions(read: true))
        #expect(state.ready(.error) == Actions(read: true))
        _ = state.enqueue(Self.bytes("ab"))
        _ = state.wrote(.wouldBlock)
        #expect(state.ready(.error) == Actions(write: true, read: true))
        _ = state.setReading(false)
        #expect(state.ready(.hangup) == Actions(write: true))
    }

    @Test("reads are reported with their count; EAGAIN reports nothing")
    func reads() {
        var state = Self.connected()
        #expect(state.received(.received(10)) == Actions(report: .received(10)))
        #expect(state.received(.wouldBlock) == .none)
    }

    @Test("cancel closes without a report, and every later event does nothing")
    func cancel() {
        var state = Self.connected()
        _ = state.enqueue(Self.bytes("abc"))
        #expect(state.cancel() == Actions(close: true))
        #expect(state.wrote(.processed(3)) == .none)
        #expect(state.received(.received(3)) == .none)
        #expect(state.setReading(false) == .none)
        #expect(state.watchFailed() == .none)
    }

    @Test("a watch the loop refuses closes the leg and reports failed")
    func watchRefused() {
        var state = Self.connected()
        #expect(state.watchFailed() == Actions(close: true, report: .failed))
    }
}
