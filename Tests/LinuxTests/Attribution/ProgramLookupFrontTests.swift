#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
@testable import Linux
import Shared
import Synchronization
import Testing

/// The loop's side of naming programs, with this test process's own TCP connections on loopback:
/// the first connection of a program goes to the queue, which finds it in /proc; the next is
/// answered on the loop at once, from where the first was held; a socket already closed is said
/// gone without the queue.
@Suite("Naming a connection's program on the loop when it is quick", .serialized)
struct ProgramLookupFrontTests {
    /// A listening socket on 127.0.0.1 and what connects to it.
    final class Loopback {
        let listener: Int32
        let port: UInt16
        private(set) var held: [Int32] = []

        init() throws {
            let made = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listening = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(made, $0, length) == 0 && listen(made, 16) == 0 && getsockname(made, $0, &length) == 0
                }
            }
            try #require(listening)
            listener = made
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit {
            held.forEach { close($0) }
            close(listener)
        }

        /// Puts the socket at `descriptor` on `target` in its place (closing what `target` held),
        /// as a program that closes a connection and opens the next gets the same number back —
        /// which, with other tests opening files in this process meanwhile, is not left to chance.
        func move(_ descriptor: Int32, onto target: Int32) throws {
            try #require(dup2(descriptor, target) == target)
            close(descriptor)
            held.removeAll { $0 == descriptor }
        }

        /// A new connection: its client's descriptor and the client's side of it.
        func connect() throws -> (descriptor: Int32, local: IPEndpoint, remote: IPEndpoint) {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var server = sockaddr_in()
            server.sin_family = sa_family_t(AF_INET)
            server.sin_addr.s_addr = inet_addr("127.0.0.1")
            server.sin_port = port.bigEndian
            var own = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let connected = withUnsafePointer(to: &server) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, length) == 0 }
            }
            try #require(connected)
            let named = withUnsafeMutablePointer(to: &own) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &length) == 0 } }
            try #require(named)
            let accepted = accept(listener, nil, nil)
            held += [client, accepted]
            let loopback = IPAddress(parsing: "127.0.0.1")!
            return (client, IPEndpoint(address: loopback, port: UInt16(bigEndian: own.sin_port)), IPEndpoint(address: loopback, port: port))
        }
    }

    static func key(_ local: IPEndpoint, _ remote: IPEndpoint) -> FlowKey { FlowKey(proto: .tcp, source: local, destination: remote) }

    /// The queue's answers, waited for with a deadline.
    static func queued(_ front: ProgramLookupFront, woken: DispatchSemaphore, count: Int) -> [ProgramAttributor.Answer] {
        var answers: [ProgramAttributor.Answer] = []
        let deadline = Date().addingTimeInterval(10)
        while answers.count < count, Date() < deadline {
            _ = woken.wait(timeout: .now() + 0.1)
            answers += front.takeAnswers()
        }
        return answers
    }

    /// A front for this process's own network namespace, and the semaphore its queue's wake signals.
    static func frontInThisNamespace() throws -> (ProgramLookupFront, DispatchSemaphore) {
        let namespace = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)
        try #require(namespace >= 0)
        let woken = DispatchSemaphore(value: 0)
        return (ProgramLookupFront(namespace: .success(namespace)) { woken.signal() }, woken)
    }

    @Test("a program's first connection is found by the queue; its next one on the loop at once, where the first was held")
    func theNextConnectionIsAnsweredQuickly() throws {
        let (front, woken) = try Self.frontInThisNamespace()
        let loopback = try Loopback()

        let first = try loopback.connect()
        front.flowOpened(Self.key(first.local, first.remote), local: first.local, remote: first.remote, firstSeen: 1)
        #expect(front.answerOpened().isEmpty, "no holder is known yet: the queue searches /proc")
        let searched = Self.queued(front, woken: woken, count: 1)
        guard case .program(let facts)? = searched.first?.attribution else {
            Issue.record("the queue answered \(searched)")
            return
        }
        #expect(facts.pid == getpid() && searched.first?.holder?.descriptor == first.descriptor)

        let second = try loopback.connect()
        try loopback.move(second.descriptor, onto: first.descriptor)
        front.flowOpened(Self.key(second.local, second.remote), local: second.local, remote: second.remote, firstSeen: 2)
        let quick = front.answerOpened()
        #expect(quick.map(\.firstSeen) == [2])
        #expect(quick.first?.attribution == .program(facts), "answered on the loop, the same program")
        #expect(front.takeAnswers().isEmpty, "nothing went to the queue")
    }

    @Test("a connection already closed is said gone on the loop; past the budget the rest go to the queue")
    func goneAtOnceAndTheBudgetBounds() throws {
        let (front, woken) = try Self.frontInThisNamespace()
        let gone = (local: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 9),
                    remote: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 10))
        let total = ProgramLookupFront.quickBudget + 3
        for index in 0..<total {
            let local = IPEndpoint(address: gone.local.address, port: UInt16(20_000 + index))
            front.flowOpened(Self.key(local, gone.remote), local: local, remote: gone.remote, firstSeen: UInt64(index))
        }
        let quick = front.answerOpened()
        #expect(quick.count == ProgramLookupFront.quickBudget && quick.allSatisfy { $0.attribution == .socketGone })
        let queued = Self.queued(front, woken: woken, count: 3)
        #expect(queued.map(\.firstSeen).sorted() == Array(UInt64(ProgramLookupFront.quickBudget)..<UInt64(total)))
        #expect(queued.allSatisfy { $0.attribution == .socketGone })
    }
}
