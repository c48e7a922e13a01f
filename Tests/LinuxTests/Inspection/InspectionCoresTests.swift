import Foundation
@testable import Linux
import PacketTunnel
import Shared
import Testing

@Suite("The inspection sessions' pure cores")
struct InspectionCoresTests {
    @Test("the ALPN list is encoded in RFC 7301's wire form, and a name that cannot travel is refused")
    func alpnEncoding() throws {
        #expect(try ALPNWireList.encode(["h2", "http/1.1"]) == [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8))
        #expect(try ALPNWireList.encode([]) == [])
        #expect(throws: TLSSessionFailure.self) { try ALPNWireList.encode([""]) }
        #expect(throws: TLSSessionFailure.self) { try ALPNWireList.encode([String(repeating: "x", count: 256)]) }
    }

    @Test("the answer is found inside the client's offer, or not at all in a malformed one")
    func alpnLocate() {
        let offer: [UInt8] = [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8)
        offer.withUnsafeBufferPointer { buffer in
            #expect(ALPNWireList.locate(Array("http/1.1".utf8), in: buffer) == 4..<12)
            #expect(ALPNWireList.locate(Array("h2".utf8), in: buffer) == 1..<3)
            #expect(ALPNWireList.locate(Array("h3".utf8), in: buffer) == nil)
        }
        let lying: [UInt8] = [9] + Array("h2".utf8)
        lying.withUnsafeBufferPointer { #expect(ALPNWireList.locate(Array("h2".utf8), in: $0) == nil) }
        let empty: [UInt8] = [0, 2] + Array("h2".utf8)
        empty.withUnsafeBufferPointer { #expect(ALPNWireList.locate(Array("h2".utf8), in: $0) == nil) }
    }

    @Test("the cache keeps its bound and drops the least recently used host")
    func recencyCache() {
        var cache = BoundedRecencyCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        #expect(cache.value(for: "a") == 1)  // a is now more recent than b
        cache.insert(3, for: "c")
        #expect(cache.count == 2)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        cache.insert(4, for: "c")  // replacing evicts nothing
        #expect(cache.count == 2 && cache.value(for: "a") == 1)
    }

    @Test("how a stopped call ends the session, rule by rule")
    func stopRules() {
        func stop(_ cause: OpenSSLStop.Cause = .error, finished: Bool = false, alert: UInt8? = nil,
                  verification: String? = nil) -> TLSSessionEnd {
            OpenSSLStop(cause: cause, handshakeFinished: finished, alertFromPeer: alert,
                        verificationError: verification, reason: "why").end
        }
        #expect(stop(.closeNotify) == .alertFromPeer(.closeNotify))      // a close_notify before the handshake's end
        #expect(stop(.certificateRequested) == .certificateRequested)
        #expect(stop(alert: 48) == .alertFromPeer(.unknownCA))
        #expect(stop(alert: 48, verification: "certificate has expired") == .verificationFailed("certificate has expired"))
        #expect(stop(verification: "hostname mismatch") == .verificationFailed("hostname mismatch"))
        #expect(stop(finished: true, alert: 20) == .alertFromPeer(TLSAlertDescription(20)))
        #expect(stop() == .failed("why"))
    }
}
