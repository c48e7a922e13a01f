import Shared
import Testing

@Suite("Monitoring targets")
struct MonitoringTargetTests {
    @Test("names the kernel and ip netns take are valid", arguments: [
        MonitoringTarget.host, .namespace("lab-host"), .namespace(String(repeating: "n", count: 255)), .process(1), .process(4_194_304),
        .interface("eth0"), .interface("any"), .interface("veth-lab.10"), .interface(String(repeating: "i", count: 15)),
    ])
    func validNames(target: MonitoringTarget) {
        #expect(target.invalidity == nil, "\(target)")
    }

    @Test("names they refuse are refused, each with why", arguments: [
        (MonitoringTarget.namespace(""), "needs a name"), (.namespace("a/b"), "one path component"), (.namespace(".."), "one path component"),
        (.namespace(String(repeating: "n", count: 256)), "at most 255 bytes"), (.process(0), "positive"), (.process(-3), "positive"),
        (.interface(""), "needs a name"), (.interface(String(repeating: "i", count: 16)), "at most 15 bytes"),
        (.interface("eth0:1"), "no /, : or spaces"), (.interface("my if"), "no /, : or spaces"), (.interface("a/b"), "no /, : or spaces"),
        (.interface("."), "no /, : or spaces"),
    ])
    func invalidNames(target: MonitoringTarget, reason: String) {
        #expect(target.invalidity?.contains(reason) == true, "\(target): \(target.invalidity ?? "valid")")
    }

    @Test("only an interface is passive")
    func passive() {
        #expect(MonitoringTarget.interface("any").isPassive)
        #expect(![MonitoringTarget.host, .namespace("n"), .process(7)].contains { $0.isPassive })
    }
}
