import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a chunking byte (`Chunking`), two bytes that say how long the client's stream is
/// (big-endian, capped at what follows), then the client's stream and the server's. The flow's
/// scanners are fed both streams in those chunks, alternating client and server, and then:
/// - they learn the same facts as when each stream is given in one chunk (in any order: when a
///   fact is learned depends on the chunking) — the server's unless the client's first byte
///   announced a request that then was none;
/// - a proxy target's host is at most 255 bytes of what was sent, and it appears at most once;
/// - the proxy request scanner alone answers the same whole and chunked, and stays settled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxyTunnel(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let chunking = Chunking(selector: input.byte())
    let declared = Int(input.byte()) << 8 | Int(input.byte())
    let streams = input.rest
    let split = min(declared, streams.count)
    let client = UnsafeRawBufferPointer(rebasing: streams[..<split])
    let server = UnsafeRawBufferPointer(rebasing: streams[split...])

    var whole = TCPFlowScanners()
    let expectedClient = whole.client(client)
    let expectedServer = whole.server(server)

    var chunked = TCPFlowScanners()
    var clientFacts: [FlowFact] = []
    var serverFacts: [FlowFact] = []
    let clientChunks = chunking.ranges(count: client.count)
    let serverChunks = chunking.ranges(count: server.count)
    for index in 0..<max(clientChunks.count, serverChunks.count) {
        if index < clientChunks.count { clientFacts += chunked.client(UnsafeRawBufferPointer(rebasing: client[clientChunks[index]])) }
        if index < serverChunks.count { serverFacts += chunked.server(UnsafeRawBufferPointer(rebasing: server[serverChunks[index]])) }
    }
    let described = { (facts: [FlowFact]) in facts.map { String(describing: $0) }.sorted() }
    invariant(described(clientFacts) == described(expectedClient),
              "client chunked \(chunking.selector): \(clientFacts); whole: \(expectedClient)")

    var request = ProxyRequestScanner()
    let answer = request.scan(client)
    // The server's reply is read by the kind the client's first byte announced, before the
    // request is complete. A stream that began like a request and was none may still have met a
    // well-formed reply, and what followed it was read: only then may the facts differ from the
    // whole run's, which knew the request was none before the server spoke.
    let misled = if case .unavailable = answer, let first = client.first,
                    [0x04, 0x05, UInt8(ascii: "C")].contains(first) { true } else { false }
    if !misled {
        invariant(described(serverFacts) == described(expectedServer),
                  "server chunked \(chunking.selector): \(serverFacts); whole: \(expectedServer)")
    }

    let targets = clientFacts.compactMap { fact -> ProxyTarget? in if case .proxyTarget(let target) = fact { target } else { nil } }
    invariant(targets.count <= 1, "\(targets.count) proxy targets")
    if let target = targets.first { invariant(target.host.utf8.count <= 255 * 3, "a host of \(target.host.utf8.count) bytes") }

    var bytewise = ProxyRequestScanner()
    var last = ProxyRequestScanner.Outcome.needMoreBytes
    for range in chunking.ranges(count: client.count) {
        let next = bytewise.scan(Data(UnsafeRawBufferPointer(rebasing: client[range])))
        if last != .needMoreBytes { invariant(next == last, "settled on \(last), then answered \(next)") }
        last = next
    }
    invariant(last == answer || client.isEmpty, "request chunked: \(last); whole: \(answer)")
    return 0
}
