import Fixtures
import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// Seeded mutations of the golden streams: no scanner traps, and feeding byte by byte always gives
/// the answer one chunk gives (STYLE practice 13).
@Suite struct TLSScannerRobustnessTests {
    typealias V = TLSVectors

    private static let flight12 = V.record(V.serverHello12Message + V.certificateMessage([
        TestCertificates.der(subject: "a.example", issuer: "CA"), TestCertificates.der(subject: "CA", issuer: "Root"),
    ]) + V.serverHelloDone)

    /// The golden streams with every bit flipped one at a time, and seeded random rewrites of a
    /// few bytes each.
    static func mutations(of bytes: [UInt8], seed: UInt64, random count: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for bit in 0..<(bytes.count * 8) {
            var copy = bytes
            copy[bit / 8] ^= 1 << (bit % 8)
            result.append(copy)
        }
        var random = SeededRandom(seed: seed)
        for _ in 0..<count {
            var copy = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { copy.removeLast(Int.random(in: 0..<copy.count, using: &random)) }
            result.append(copy)
        }
        return result
    }

    private func clientHello(_ chunks: [Data]) -> (ClientHelloScanner.Outcome, ClientTLSOffer?) {
        var scanner = ClientHelloScanner()
        var last = ClientHelloScanner.Outcome.needMoreBytes
        for chunk in chunks { last = scanner.scan(chunk) }
        return (last, scanner.offer)
    }

    @Test("mutated ClientHellos: one chunk and byte by byte agree")
    func clientHellos() {
        for mutated in Self.mutations(of: V.clientHelloRecord, seed: 1, random: 500) {
            let whole = clientHello([Data(mutated)])
            let bytes = clientHello(V.chunks(mutated, size: 1))
            #expect(whole.0 == bytes.0 && whole.1 == bytes.1, "\(mutated)")
        }
    }

    private func certificates(_ chunks: [Data]) -> (ServerHelloScanner.Outcome, ServerCertificateScanner.Outcome?) {
        var hello = ServerHelloScanner()
        var scanner: ServerCertificateScanner?
        var answer = ServerHelloScanner.Outcome.needMoreBytes
        var reading: ServerCertificateScanner.Outcome?
        for chunk in chunks {
            if var current = scanner {
                reading = current.scan(chunk)
                scanner = current
                continue
            }
            answer = hello.scan(chunk)
            if let remainder = hello.remainder {
                var fresh = ServerCertificateScanner(resuming: remainder)
                reading = fresh.scan(Data())
                scanner = fresh
            }
        }
        return (answer, reading)
    }

    @Test("mutated TLS 1.2 flights: the hello and the chain agree however they are fed")
    func serverFlights() {
        for mutated in Self.mutations(of: Self.flight12, seed: 2, random: 300) {
            let whole = certificates([Data(mutated)])
            let bytes = certificates(V.chunks(mutated, size: 1))
            #expect(whole.0 == bytes.0 && whole.1 == bytes.1)
        }
    }

    @Test("mutated openings: one chunk and byte by byte agree")
    func streamOpenings() {
        let streams = [V.clientHelloRecord, Array("CONNECT example.com:443 HTTP/1.1\r\n".utf8)]
        for (index, stream) in streams.enumerated() {
            for mutated in Self.mutations(of: stream, seed: UInt64(10 + index), random: 300) {
                var whole = StreamOpeningScanner()
                var bytes = StreamOpeningScanner()
                let one = whole.scan(Data(mutated))
                let last = V.chunks(mutated, size: 1).map { bytes.scan($0) }.last ?? .needMoreBytes
                #expect(one == last)
            }
        }
    }
}
