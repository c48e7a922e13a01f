import Bench
import Testing

/// `--paths` as a person types it.
@Suite("TunnelBenchPath")
struct TunnelBenchPathTests {
    @Test("names are taken in the order given")
    func order() {
        #expect(TunnelBenchPath.list(from: "tunnel,direct") == .success([.tunnel, .direct]))
        #expect(TunnelBenchPath.list(from: "slirp4netns") == .success([.slirp4netns]))
        #expect(TunnelBenchPath.list(from: "direct,tunnel,routed,passive,pasta,slirp4netns,haproxy") == .success(TunnelBenchPath.allCases))
    }

    @Test("an unknown name, an empty item or a repeated name is refused, naming it")
    func refused() {
        #expect(TunnelBenchPath.list(from: "direct,slirp") == .failure(.unknown("slirp")))
        #expect(TunnelBenchPath.list(from: "direct,,tunnel") == .failure(.empty))
        #expect(TunnelBenchPath.list(from: "direct,") == .failure(.empty))
        #expect(TunnelBenchPath.list(from: "pasta,direct,pasta") == .failure(.repeated("pasta")))
        #expect(TunnelBenchPath.list(from: "Tunnel") == .failure(.unknown("Tunnel")))
    }

    @Test("the relays whose interface the bench sets an MTU on are measured at each MTU; direct and the services take none")
    func mtuTakers() {
        #expect(TunnelBenchPath.allCases.filter(\.takesMTU) == [.tunnel, .pasta, .slirp4netns])
        #expect(!TunnelBenchPath.haproxy.takesMTU && !TunnelBenchPath.haproxy.isService)
    }
}
