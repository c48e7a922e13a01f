#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import TestSupport

/// What the inspection tests need around a session: a TCP socket on 127.0.0.1 to a real TLS
/// program, and the loop that shuttles bytes between that socket and the session — the relay's
/// job in the product. Nothing leaves loopback.
enum Loopback {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A listening socket on 127.0.0.1 and its port.
    static func listen() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, Glibc.listen(descriptor, 4) == 0 else {
            throw Failure(description: "listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    static func accept(_ listener: Int32, timeout: TimeInterval = 10) throws -> Int32 {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { throw Failure(description: "no client connected in \(timeout) s") }
        return Glibc.accept(listener, nil, nil)
    }

    static func connect(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        return descriptor
    }
}

/// What a shuttle saw, for the test to assert on.
struct ShuttleRecord {
    var plaintext = Data()
    /// Every byte the peer sent, as it came off the socket (its TLS records).
    var fromPeer = Data()
    var established = false
    var ended: TLSSessionEnd?
    /// The peer's close_notify arrived (and was answered with ours, as a faithful peer does).
    var peerClosed = false
    var peerEndedStream = false
}

/// One step of a test's script: when `condition` first holds, send `plaintext` (if any), then
/// close (our close_notify) if asked.
struct ShuttleCue {
    enum Condition { case established, plaintextContains(String) }
    var condition: Condition
    var plaintext: Data?
    var thenClose = false

    func holds(_ record: ShuttleRecord) -> Bool {
        switch condition {
        case .established: record.established
        case .plaintextContains(let text): String(decoding: record.plaintext, as: UTF8.self).contains(text)
        }
    }
}

/// Moves bytes between `descriptor` and `session` until the session ends, the peer's stream ends,
/// or `timeout` passes; then closes the socket.
extension TLSSessionFactory {
    /// A client leg offering everything the tunnel's TLS can: what a client with the widest limits gets
    /// (AEAD suites first: their code points are the highest).
    func makeClient(host: String, applicationProtocols: [String]) throws(TLSSessionFailure) -> any TLSSession {
        try makeClient(UpstreamOffer(host: host, applicationProtocols: applicationProtocols, minimumVersion: .tls12,
                                     maximumVersion: .tls13, tls12CipherSuites: capabilities.tls12CipherSuites.sorted(by: >),
                                     tls13CipherSuites: capabilities.tls13CipherSuites.sorted()))
    }
}

func shuttle(_ session: any TLSSession, over descriptor: Int32, cues: [ShuttleCue] = [],
             timeout: TimeInterval = 15) -> ShuttleRecord {
    var record = ShuttleRecord()
    var pending = cues[...]
    defer { Glibc.close(descriptor) }
    func apply(_ step: TLSSessionStep) {
        write(step.toPeer)
        record.plaintext += step.plaintext
        if step.becameEstablished { record.established = true }
        if let end = step.ended, record.ended == nil { record.ended = end }
        if step.peerClosed {
            record.peerClosed = true
            apply(session.close())
        }
        while record.ended == nil, let cue = pending.first, cue.holds(record) {
            pending.removeFirst()
            if let plaintext = cue.plaintext { apply(session.send(plaintext)) }
            if cue.thenClose { apply(session.close()) }
        }
    }
    func write(_ bytes: Data) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }
    apply(session.start())
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while record.ended == nil, !record.peerEndedStream, Date() < deadline {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) == 1 else { continue }
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 {
            let bytes = Data(buffer[..<count])
            record.fromPeer += bytes
            apply(session.receive(bytes))
        } else {
            record.peerEndedStream = true
            apply(session.receiveEnd())
        }
    }
    return record
}

/// A real TLS program for one test: its stdin fed, its output collected, killed if it outlives
/// the test.
final class PeerProgram: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let input = Pipe()
    private let lock = NSLock()
    private var collected = Data()
    private var collectedErrors = Data()
    /// The pipes read to their end (an empty read), of the two.
    private var pipesEnded = 0

    init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.lock.withLock {
                self?.collected += data
                if data.isEmpty { self?.pipesEnded += 1 }
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.lock.withLock {
                self?.collectedErrors += data
                if data.isEmpty { self?.pipesEnded += 1 }
            }
        }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    var standardOutput: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }
    var standardError: String { lock.withLock { String(decoding: collectedErrors, as: UTF8.self) } }

    /// SIGINT: a capture's request to stop and write out what it has.
    func interrupt() { process.interrupt() }

    func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for `text` on stdout or stderr; false on timeout.
    func waitFor(_ text: String, timeout: TimeInterval = 10) -> Bool {
        eventually(within: timeout) { standardOutput.contains(text) || standardError.contains(text) }
    }

    /// Waits for the exit (killing it after `timeout`) and returns its status.
    @discardableResult
    func finish(timeout: TimeInterval = 10) -> Int32 {
        if !eventually(within: timeout, { !process.isRunning }) { process.terminate() }
        process.waitUntilExit()
        // The readability handlers' last chunks: both pipes read to their end (a child the
        // program left behind may hold them open; then what came is what there is).
        _ = eventually(within: 2) { lock.withLock { pipesEnded == 2 } }
        return process.terminationStatus
    }
}
